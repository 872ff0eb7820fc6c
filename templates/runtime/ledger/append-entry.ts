// Handing an entry to a sink, which must never turn a model's call into an exception: a sink
// that throws is reported as a warning, and the call goes on.
import type { LedgerEntry, LedgerSink } from "./ledger.ts";

/**
 * Hands an entry to the sink. A sink must report failures through `flush`; one that throws still
 * must not turn a model's call into an exception, and must not go unnoticed.
 */
export function appendEntry(sink: LedgerSink, entry: LedgerEntry): void {
  try {
    sink.append(entry);
  } catch (error) {
    process.emitWarning(`toolguard ledger: an entry for ${entry.tool} could not be appended: ${String(error)}`, { type: "ToolguardLedgerWarning" });
  }
}

/**
 * Hands a failure's entry to the sink to be written before the call returns (`appendNow`), or
 * through `append` when the sink has no such write. Never throws, as `appendEntry`.
 */
export function appendEntryNow(sink: LedgerSink, entry: LedgerEntry): void {
  if (sink.appendNow === undefined) {
    appendEntry(sink, entry);
    return;
  }
  try {
    sink.appendNow(entry);
  } catch (error) {
    process.emitWarning(`toolguard ledger: an entry for ${entry.tool} could not be written: ${String(error)}`, { type: "ToolguardLedgerWarning" });
  }
}
