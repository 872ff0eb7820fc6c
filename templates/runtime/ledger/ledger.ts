// The ledger: one append-only record per repair chain, so repairs stop being silent. The record's
// types are in contract/ledger-entry.ts; the sinks live beside this file: `ledger-jsonl.ts` (the
// durable default), `ledger-memory.ts`.
import type { LedgerAttempt, LedgerEntry, LedgerSink, Verdict } from "../contract/ledger-entry.ts";

export type { LedgerAttempt, LedgerEntry, LedgerSink, Verdict };

/**
 * The current record of each chain: the last entry per chain id, in the order the chains first
 * appeared. What reports read; the raw entries are the history.
 */
export function latestPerChain(entries: readonly LedgerEntry[]): LedgerEntry[] {
  // A Map keeps the insertion order of its first `set`, so chains stay in order of appearance.
  const latest = new Map<string, LedgerEntry>();
  for (const entry of entries) latest.set(entry.chain, entry);
  return [...latest.values()];
}
