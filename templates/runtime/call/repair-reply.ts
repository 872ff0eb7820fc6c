// The pieces of a call that are not stages: telling a promise from a value, and reading what a
// repair callback returned.
import type { RepairReply } from "../contract/api.ts";

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
