// One ledger entry as one line of the JSONL file, within the sink's per-entry cap.
import { ChainRecord } from "./chain-record.ts";
import type { LedgerEntry } from "./ledger.ts";
import { LineWriter } from "./line-writer.ts";
import { sha256 } from "./record-policy.ts";

/**
 * Writes the entry's JSON and a newline into `out`. A line longer than `maxBytes` (UTF-8) is
 * replaced by a stub that keeps the chain's identity and verdict and records the full line's
 * length in bytes and its SHA-256, so the ledger stays bounded and the loss is visible. An
 * entry that cannot be serialised (a sink user's own object with a cycle) is written as a stub
 * that says so, rather than blocking the slice.
 */
export function writeLine(out: LineWriter, entry: LedgerEntry, maxBytes: number): void {
  const start = out.length;
  try {
    // The runtime's own entries write their text field by field; any other object is JSON.
    if (entry instanceof ChainRecord) entry.writeTo(out);
    else out.json(entry);
  } catch (error) {
    out.rewind(start);
    out.json({ v: 1, tool: String(entry.tool), turn: String(entry.turn), unserialisable: String(error) });
  }
  const length = out.length - start;
  if (length > maxBytes) {
    const digest = sha256(out.since(start));
    out.rewind(start);
    out.json({
      v: 1,
      chain: entry.chain,
      tool: entry.tool,
      turn: entry.turn,
      startedAt: entry.startedAt,
      verdict: entry.verdict,
      attempts: [],
      repairs: entry.repairs,
      oversize: { length, sha256: digest },
    });
  }
  out.newline();
}

/** A writer for `entryLine`, reused: the line is copied out as a string. */
const SCRATCH = new LineWriter(64 * 1024);

/** The entry's line as a string, newline included (for tests and tools; the sink writes bytes). */
export function entryLine(entry: LedgerEntry, maxBytes: number): string {
  SCRATCH.reset();
  writeLine(SCRATCH, entry, maxBytes);
  return Buffer.from(SCRATCH.bytes()).toString("utf8");
}

/** The entry's JSON, without the newline (see `entryLine`). */
export function entryJson(entry: LedgerEntry, maxBytes: number): string {
  return entryLine(entry, maxBytes).slice(0, -1);
}
