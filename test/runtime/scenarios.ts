// The brief's tests as reusable assertions over any way of building the guarded invoice tool,
// so the same assertions run against the real guard (brief.test.ts) and against planted
// defects (mutants.test.ts), where each of them must fail.
import { expect } from "vitest";
import type { GuardedTool, Implementation } from "../../templates/runtime/contract/api.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import type { Outcome, ValidationFailedOutcome } from "../../templates/runtime/contract/outcome.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { entryArguments } from "../../templates/runtime/ledger/read.ts";
import { validInvoice } from "./invoice-spec.ts";

export type InvoiceArgs = typeof validInvoice;
export type MakeTool = (implementation: Implementation<InvoiceArgs, string>, ledger: MemorySink) => GuardedTool<string>;
export type Shape = "framework" | "callback";

interface Emission {
  readonly arguments: string;
  readonly finishReason?: string;
}

/** A fake model that replays a script; it refuses to run away, so a missing bound shows up as a failure, not a hang. */
export class ScriptedModel {
  attempts = 0;
  readonly seen: ValidationFailedOutcome[] = [];
  readonly #next: (attempt: number) => Emission;

  constructor(next: (attempt: number) => Emission) {
    this.#next = next;
  }

  emit(failure?: ValidationFailedOutcome): Emission {
    if (failure) this.seen.push(failure);
    this.attempts++;
    if (this.attempts > 10) throw new Error("runaway repair loop: the model was asked more than 10 times");
    return this.#next(this.attempts);
  }
}

/** A spy implementation that records a deep copy of everything it receives. */
export function spyImplementation(): { implementation: Implementation<InvoiceArgs, string>; invocations: unknown[] } {
  const invocations: unknown[] = [];
  return {
    invocations,
    implementation: (args) => {
      invocations.push(structuredClone(args));
      return "inv_1";
    },
  };
}

/** Runs one model turn against the tool in the given usage shape. */
export async function runTurn(tool: GuardedTool<string>, model: ScriptedModel, shape: Shape, turn: string): Promise<Outcome<string>> {
  const first = model.emit();
  if (shape === "callback") {
    return tool.call(first.arguments, { turn, finishReason: first.finishReason, repair: (failure) => model.emit(failure) });
  }
  // An agent framework: every tool result goes back to the model, every new call comes in again.
  let emission = first;
  for (;;) {
    const outcome = await tool.call(emission.arguments, { turn, finishReason: emission.finishReason });
    if (outcome.status !== "validation_failed") return outcome;
    emission = model.emit(outcome);
  }
}

function lastEntry(ledger: MemorySink): LedgerEntry {
  const entry = ledger.last();
  if (!entry) throw new Error("no ledger entry");
  return entry;
}

/** Brief test 1: malformed arguments never reach the tool; the ledger shows the repair, no coercion. */
export async function assertRepairedCallOnly(make: MakeTool, shape: Shape): Promise<void> {
  const ledger = new MemorySink();
  const spy = spyImplementation();
  const tool = make(spy.implementation, ledger);
  const model = new ScriptedModel((attempt) =>
    attempt === 1 ? { arguments: JSON.stringify({ ...validInvoice, amount: "1,299.00", currency: "eur" }) } : { arguments: JSON.stringify(validInvoice) },
  );
  const outcome = await runTurn(tool, model, shape, "invoice Acme for 1299 euro");

  expect(spy.invocations).toEqual([{ ...validInvoice, amount: 1299, currency: "EUR" }]);
  expect(outcome.status).toBe("ok");
  expect(model.attempts).toBe(2);
  const entry = lastEntry(ledger);
  expect(entry.repairs).toBe(1);
  expect(entry.verdict).toBe("repaired");
  expect(entry.attempts.flatMap((attempt) => attempt.coercions)).toEqual([]);
  expect(entryArguments(entry)).toEqual(validInvoice);
}

/** Brief test 2: a model that is wrong forever is asked exactly twice, then refused. */
export async function assertBudgetBounded(make: MakeTool, shape: Shape): Promise<void> {
  const ledger = new MemorySink();
  const spy = spyImplementation();
  const tool = make(spy.implementation, ledger);
  const model = new ScriptedModel(() => ({ arguments: JSON.stringify({ ...validInvoice, currency: "euro" }) }));
  const outcome = await runTurn(tool, model, shape, "invoice Acme for next month");

  expect(outcome.status).toBe("arguments_rejected");
  expect(model.attempts).toBe(2);
  expect(spy.invocations).toEqual([]);
  expect(lastEntry(ledger).verdict).toBe("rejected");
  // The bound belongs to the turn, not to the caller's loop: another call in it is refused at once.
  const again = await tool.call(JSON.stringify(validInvoice), { turn: "invoice Acme for next month" });
  expect(again.status).toBe("arguments_rejected");
  expect(spy.invocations).toEqual([]);
}

/**
 * Truncation the provider reports (its finish reason) earns a second repair; any other first
 * failure does not, text that merely looks cut off included.
 */
export async function assertTruncationBudget(make: MakeTool, shape: Shape): Promise<void> {
  const cut = JSON.stringify(validInvoice).slice(0, 60);
  const spy = spyImplementation();
  const tool = make(spy.implementation, new MemorySink());

  const truncatedForever = new ScriptedModel(() => ({ arguments: cut, finishReason: "length" }));
  expect((await runTurn(tool, truncatedForever, shape, "t1")).status).toBe("arguments_rejected");
  expect(truncatedForever.attempts).toBe(3);

  const looksCutForever = new ScriptedModel(() => ({ arguments: cut }));
  expect((await runTurn(tool, looksCutForever, shape, "t0")).status).toBe("arguments_rejected");
  expect(looksCutForever.attempts).toBe(2);

  const cutByProvider = new ScriptedModel((n) =>
    n < 3 ? { arguments: JSON.stringify(validInvoice), finishReason: "length" } : { arguments: JSON.stringify(validInvoice) },
  );
  expect((await runTurn(tool, cutByProvider, shape, "t2")).status).toBe("ok");
  expect(cutByProvider.attempts).toBe(3);

  const wrongThenCut = new ScriptedModel((n) => (n === 1 ? { arguments: JSON.stringify({ ...validInvoice, amount: "lots" }) } : { arguments: cut }));
  expect((await runTurn(tool, wrongThenCut, shape, "t3")).status).toBe("arguments_rejected");
  expect(wrongThenCut.attempts).toBe(2);
}
