// Where a call meets its sink beyond `append`: backpressure (the outcome waits while the sink's
// queue is over its bound), durable mode (the outcome waits for its entry to be on disk) and
// fail-closed mode (no implementation runs while the ledger cannot be written).
import type { LedgerSink } from "./ledger.ts";
import type { LedgerUnavailableOutcome, Outcome } from "../contract/outcome.ts";

/**
 * The outcome, delayed while the sink asks for backpressure, and in durable mode until every
 * entry appended so far (this call's included) is written. Without either, the same promise:
 * no extra promise turn on the ordinary path.
 */
export function settleWithLedger<Result>(outcome: Promise<Outcome<Result>>, sink: LedgerSink, durable: boolean, pressure: Promise<void> | undefined): Promise<Outcome<Result>> {
  if (durable && sink.written) {
    const written = sink.written.bind(sink);
    return outcome.then(
      (settled) => written().then(() => settled),
      (error: unknown) => written().then(() => Promise.reject(error), () => Promise.reject(error)),
    );
  }
  if (pressure === undefined) return outcome;
  return pressure.then(() => outcome);
}

/** Whether the implementation may run in fail-closed mode: the ledger can be written. */
export function ledgerGate(sink: LedgerSink): boolean | Promise<boolean> {
  if (!sink.writable) return true;
  try {
    const writable = sink.writable();
    return typeof writable === "boolean" ? writable : writable.catch(() => false);
  } catch {
    return false;
  }
}

export function ledgerUnavailable(tool: string, attempts: number): LedgerUnavailableOutcome {
  return {
    status: "ledger_unavailable",
    tool,
    detail: `The arguments for ${tool} were valid, but the call was not run: the audit ledger cannot be written right now, and this tool is configured to refuse unrecorded calls. Do not change the arguments; report the failure or try again later.`,
    attempts,
  };
}
