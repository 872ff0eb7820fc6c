// Reading a ledger file line by line: a ledger of any size is read in bounded memory (a 600 MB
// file used to be read as one string, which V8 refuses past ~512 MB), and lines that are not
// whole entries are skipped and counted, never fatal.
import { createReadStream } from "node:fs";
import type { LedgerEntry } from "./ledger.ts";
import { applyResolutions } from "../resolve/apply-resolutions.ts";
import { ledgerFiles } from "./ledger-files.ts";
import { entriesOfLine, type LedgerScan } from "./read-line.ts";

export type { LedgerScan };

/**
 * Every entry of the ledger at `path`, read as a stream: every writer's files (ledger-files.ts),
 * each in file order, the files by the time of their newest line, so every process's entries
 * come in the order it wrote them; the configured path itself last. Torn fragments are counted
 * as `scanLedgerFile` counts them. A missing ledger is empty.
 */
export async function* scanLedger(path: string, scan: LedgerScan = { entries: 0, torn: 0 }, onTorn?: (fragment: string) => void): AsyncGenerator<LedgerEntry> {
  for (const { file } of ledgerFiles(path)) yield* scanLedgerFile(file, scan, onTorn);
}

/**
 * Every entry of one ledger file, in file order, read as a stream. A line holding a torn fragment
 * glued to a whole entry (a writer that died mid-line, then another that appended) yields the
 * entry; the fragment is counted in `scan.torn` and passed to `onTorn`. A missing file is empty.
 */
export async function* scanLedgerFile(
  path: string,
  scan: LedgerScan = { entries: 0, torn: 0 },
  onTorn?: (fragment: string) => void,
): AsyncGenerator<LedgerEntry> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  let rest = "";
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        yield* entriesOfLine(text.slice(start, end), scan, onTorn);
        start = end + 1;
      }
      rest = text.slice(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (rest !== "") yield* entriesOfLine(rest, scan, onTorn);
}

/**
 * Reads a whole ledger (every writer's files, as `scanLedger` does) into memory. Torn fragments are skipped (count them with
 * `scanLedger`); a missing file is an empty ledger. For large files prefer `scanLedger`.
 */
export async function readLedger(path: string = ".toolguard/ledger.jsonl"): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for await (const entry of scanLedger(path)) entries.push(entry);
  return entries;
}

/**
 * The arguments the implementation received, as an entry records them: `arguments` when
 * coercions or resolved references changed them, the passing attempt's raw text parsed with its
 * resolutions applied when only references did (`argumentsResolved`), otherwise that text
 * parsed (an entry leaves out what the raw text already says). `undefined` when the
 * implementation never ran, or the text was cut or redacted as a whole.
 */
export function entryArguments(entry: LedgerEntry): unknown {
  if (entry.arguments !== undefined) return entry.arguments;
  if (entry.verdict !== "ok" && entry.verdict !== "repaired" && entry.verdict !== "error") return undefined;
  const passing = entry.attempts.at(-1);
  if (!passing || passing.failure || passing.question || passing.rawLength !== undefined) return undefined;
  try {
    const parsed = JSON.parse(passing.raw) as unknown;
    return entry.argumentsResolved === true && passing.resolutions ? applyResolutions(parsed, passing.resolutions) : parsed;
  } catch {
    return undefined;
  }
}
