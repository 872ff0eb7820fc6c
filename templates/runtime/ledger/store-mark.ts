// The ledger's mark of a shared chain store's outage (docs/ledger.md, "Marks"): one entry with
// verdict `chain_store_unavailable` and no attempts, so a reader of the ledger (and `toolguard
// report`) knows that a call's repair chain was bounded by this process alone at that time.
import { appendEntryNow } from "./append-entry.ts";
import { chainId } from "./chain-id.ts";
import type { LedgerEntry, LedgerSink } from "./ledger.ts";

/** The entry that marks `tool`'s call in `turn` as bounded locally because the shared store failed (`reason`). */
export function chainStoreMark(tool: string, turn: string, reason: string): LedgerEntry {
  return {
    v: 1,
    chain: chainId(),
    tool,
    turn,
    startedAt: new Date().toISOString(),
    verdict: "chain_store_unavailable",
    attempts: [],
    repairs: 0,
    chainStore: { unavailable: reason.slice(0, 1024) },
  };
}

/** Appends the mark, written through like a failure's entry (outages are rare and are what the ledger is read for). */
export function markChainStoreOutage(sink: LedgerSink, tool: string, turn: string, reason: string): void {
  appendEntryNow(sink, chainStoreMark(tool, turn, reason));
}
