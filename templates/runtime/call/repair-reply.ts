// The pieces of a call that are not stages: telling a promise from a value, and the repair loop
// a caller asks for with `context.repair`.
import type { CallContext, RepairReply } from "../contract/api.ts";
import type { Outcome } from "../contract/outcome.ts";

/** The repair loop of `context.repair`: each failure envelope to the callback, each reply to `next`, within the budget `next` keeps. */
export async function driveRepairs<Result>(
  first: Promise<Outcome<Result>>,
  context: CallContext,
  repair: NonNullable<CallContext["repair"]>,
  next: (raw: unknown, context: CallContext) => Promise<Outcome<Result>>,
): Promise<Outcome<Result>> {
  let outcome = await first;
  while (outcome.status === "validation_failed") {
    const reply = unpack(await repair(outcome));
    outcome = await next(reply.raw, { turn: context.turn, finishReason: reply.finishReason, signal: context.signal });
  }
  return outcome;
}

export function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * A repair reply is either the model's raw arguments or `{arguments, finishReason?}`. An object
 * is read as that wrapper only when `arguments` is its only key besides `finishReason`.
 */
export function unpack(reply: RepairReply): { raw: unknown; finishReason: string | undefined } {
  if (reply !== null && typeof reply === "object" && !Array.isArray(reply) && Object.hasOwn(reply, "arguments")) {
    const keys = Object.keys(reply);
    if (keys.every((key) => key === "arguments" || key === "finishReason")) {
      const wrapper = reply as { arguments: unknown; finishReason?: unknown };
      return { raw: wrapper.arguments, finishReason: typeof wrapper.finishReason === "string" ? wrapper.finishReason : undefined };
    }
  }
  return { raw: reply, finishReason: undefined };
}
