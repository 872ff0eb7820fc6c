// One ledger entry as one line of the JSONL file, within the sink's per-entry cap.
import { ChainRecord } from "./chain-record.ts";
import type { LedgerEntry } from "./ledger.ts";
import { sha256 } from "./record-policy.ts";

/** The entry's JSON and a newline (see `entryJson`). */
export function entryLine(entry: LedgerEntry, maxChars: number): string {
  return `${entryJson(entry, maxChars)}\n`;
}

/**
 * The entry's JSON, without the newline. A text longer than `maxChars` (UTF-16 units) is
 * replaced by a stub that keeps the chain's identity and verdict and records the full text's
 * length and SHA-256, so the ledger stays bounded and the loss is visible.
 */
export function entryJson(entry: LedgerEntry, maxChars: number): string {
  // The runtime's own entries write their text field by field.
  const line = entry instanceof ChainRecord ? entry.toJSONText() : JSON.stringify(entry);
  if (line.length <= maxChars) return line;
  const stub = {
    v: 1,
    chain: entry.chain,
    tool: entry.tool,
    turn: entry.turn,
    startedAt: entry.startedAt,
    verdict: entry.verdict,
    attempts: [],
    repairs: entry.repairs,
    oversize: { length: line.length, sha256: sha256(line) },
  };
  return JSON.stringify(stub);
}
