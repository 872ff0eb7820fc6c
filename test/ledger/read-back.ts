// What a reader gets back from a line the writer wrote, beside what the entry itself says, for
// tests that hold the line to its entry: every version reads back as the entry's JSON value; a
// version-3 line (a clean entry whose raw text it embeds) with `v` 3 and the members it leaves
// out filled in by the reader (templates/runtime/ledger/embedded-line.ts).
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { parseLine } from "../../templates/runtime/ledger/read-line.ts";

/** The entry a reader makes of `line` (newline or not); throws when it reads none. */
export function readBack(line: string): LedgerEntry {
  const entry = parseLine(line.endsWith("\n") ? line.slice(0, -1) : line);
  if (entry === undefined) throw new Error(`not a whole ledger line: ${line.slice(0, 200)}`);
  return entry;
}

/** The entry's own JSON value as a reader of `line` must get it: `v` 3 when the line is a version-3 one. */
export function expectedBack(entry: LedgerEntry, line: string): LedgerEntry {
  const value = JSON.parse(JSON.stringify(entry)) as LedgerEntry;
  return line.startsWith('{"v":3,') ? { ...value, v: 3 } : value;
}
