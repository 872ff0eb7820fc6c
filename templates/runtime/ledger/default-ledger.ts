// The process-wide default sink: what a guard without a `ledger` option writes to.
import { JsonlFileSink } from "./ledger-jsonl.ts";

let shared: JsonlFileSink | undefined;

/**
 * The process-wide default sink, created on first use: what a guard without a `ledger` option
 * writes to. Flushed before the process exits normally (`beforeExit`) and written synchronously
 * on `process.exit()` (`exit`); for signals, see `flushLedgerOnSignals`.
 */
export function defaultLedger(): JsonlFileSink {
  if (shared === undefined) {
    const sink = new JsonlFileSink();
    shared = sink;
    process.once("beforeExit", () => {
      sink.flush().catch(() => undefined); // failures were already reported as warnings
    });
    process.once("exit", () => sink.flushSync());
  }
  return shared;
}
