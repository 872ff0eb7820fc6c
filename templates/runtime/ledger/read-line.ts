// One line of a ledger file read back: every version the writers have written (docs/ledger.md,
// "Format"), and the torn fragments a writer that died mid-line leaves. Where the lines come
// from (which files, in which order) is read.ts's; this file knows only what one line holds.
import type { LedgerEntry } from "./ledger.ts";
import { EMBEDDED_START, embeddedEntry } from "./embedded-line.ts";

/** What a scan found besides the entries. */
export interface LedgerScan {
  /** Entries read. */
  entries: number;
  /** Fragments skipped: lines, or parts of lines, that are not a whole entry (a writer died mid-line). */
  torn: number;
}

/**
 * The line format versions written so far (`v`, the first member of every line): 1 since the
 * first ledger, 2 on a line with `argumentsResolved`, 3 on a clean entry's line with its raw text
 * embedded (embedded-line.ts). A reader reads them all; a line of a later
 * version is read too (its members are JSON like the rest, and a reader ignores what it does
 * not know), so an older reader never drops entries a newer writer made.
 */
export const LINE_VERSIONS: readonly number[] = Object.freeze([1, 2, 3]);

/** Where an entry begins: every writer serialises `v` first, and inside a JSON string a `"` is always escaped. */
const ENTRY_START = '{"v":';

/**
 * The entries in one line of the file: the line's entry; or, for a torn fragment glued before a
 * whole entry (a writer that died mid-line, then another that appended), that entry, the
 * fragment counted in `scan.torn` and passed to `onTorn`; or nothing, the line counted as torn.
 */
export function* entriesOfLine(line: string, scan: LedgerScan, onTorn: ((fragment: string) => void) | undefined): Generator<LedgerEntry> {
  if (line === "") return;
  const whole = parseLine(line);
  if (whole) {
    scan.entries++;
    yield whole;
    return;
  }
  // A torn fragment glued before a whole entry: the entry is the shortest tail of the line that
  // parses, starting at an entry start (a nested `{"v":` inside `arguments` only fails to parse).
  for (let at = line.indexOf(ENTRY_START, 1); at !== -1; at = line.indexOf(ENTRY_START, at + 1)) {
    const entry = parseLine(line.slice(at));
    if (entry) {
      torn(line.slice(0, at), scan, onTorn);
      scan.entries++;
      yield entry;
      return;
    }
  }
  torn(line, scan, onTorn);
}

function torn(fragment: string, scan: LedgerScan, onTorn: ((fragment: string) => void) | undefined): void {
  scan.torn++;
  onTorn?.(fragment.length > 200 ? `${fragment.slice(0, 200)}…` : fragment);
}

/**
 * The entry a line holds, or `undefined` when it is not one whole entry. A version-3 line comes
 * back as the clean entry it stands for (embedded-line.ts), with `attempts` and `repairs`.
 */
export function parseLine(text: string): LedgerEntry | undefined {
  if (!text.startsWith(ENTRY_START) || !text.endsWith("}")) return undefined;
  if (text.startsWith(EMBEDDED_START)) {
    const embedded = embeddedEntry(text);
    if (embedded !== undefined) return embedded;
  }
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as LedgerEntry) : undefined;
  } catch {
    return undefined;
  }
}
