// The report's own read of a JSONL ledger: lines found in the file's bytes, and the lines of
// chains where every attempt passed (most of any ledger) counted from their fixed prefix
// without decoding or parsing the rest, which holds the raw arguments. Every other line is
// parsed whole, with the torn-fragment handling of templates/runtime/ledger/read.ts (a
// fragment glued before an entry is skipped and counted, the entry read). 100k entries took
// 3.4 s of CPU through `scanLedger`; see bench/cases/report-ledger.ts for the figure now.
import { createReadStream } from "node:fs";
import type { LedgerScan } from "../../templates/runtime/ledger/read.ts";
import { parseLine } from "../../templates/runtime/ledger/read-line.ts";
import type { ReportFold } from "./fold.ts";

/** What every writer starts a line with; inside a JSON string a `"` is always escaped. */
const ENTRY_START = '{"v":';
const START = Buffer.from(ENTRY_START);
/** Keys whose presence means the line needs a full parse (a failed attempt, a question, omitted attempts, a cut-off text). */
const SLOW_KEYS = ['"failure":', '"question":', '"attemptsOmitted":', '"finishReason":"length"'].map((key) => Buffer.from(key));
const RAW = Buffer.from('{"raw":');
const REPAIRS = Buffer.from('],"repairs":');
const ERRORS = Buffer.from('"errors":[');
/** The prefix the runtime's writer gives every line (entry-text.ts), up to the attempts. */
const PREFIX =
  /^\{"v":[12],"chain":"([^"\\]*)","tool":"((?:[^"\\]|\\.)*)","turn":"(?:[^"\\]|\\.)*","startedAt":"([^"\\]*)","verdict":"([a-z_]+)","attempts":\[/;
/**
 * A version-3 line's prefix (a clean entry, its raw text embedded after it as JSON, after its one
 * resolution if it has one: one attempt, passed, no repairs); what follows it is the model's text
 * (and the resolution's), whose keys say nothing of the entry.
 */
const EMBEDDED_PREFIX =
  /^\{"v":3,"chain":"([^"\\]*)","tool":"((?:[^"\\]|\\.)*)","turn":"(?:[^"\\]|\\.)*","startedAt":"([^"\\]*)","verdict":"([a-z_]+)","(?:args|resolved)":/;
/** Bytes of a line decoded to match `PREFIX`: a longer prefix (a very long tool name or turn) takes the full parse. */
const PREFIX_BYTES = 1024;

/** Options of a windowed read (`--since`). */
export interface LineWindow {
  readonly since: number;
  /** Set to the oldest chain start seen, in the window or not. */
  oldest: number | undefined;
}

/** Folds every entry of the ledger file at `path` into `fold`; a missing file is empty. */
export async function foldLedgerFile(path: string, fold: ReportFold, scan: LedgerScan, window?: LineWindow): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let rest: Buffer | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bytes = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
      let start = 0;
      for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
        foldLine(bytes, start, end, fold, scan, window, true);
        start = end + 1;
      }
      rest = start === bytes.length ? undefined : bytes.subarray(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  // The file's last piece has no newline: a writer that died mid-line leaves such a fragment, which
  // may end in a `}` of the text it was writing, so it is parsed whole, never counted from its prefix.
  if (rest !== undefined) foldLine(rest, 0, rest.length, fold, scan, window, false);
}

function foldLine(bytes: Buffer, start: number, end: number, fold: ReportFold, scan: LedgerScan, window: LineWindow | undefined, terminated: boolean): void {
  if (end === start) return;
  if (terminated && passingLine(bytes, start, end, fold, scan, window)) return;
  const line = bytes.toString("utf8", start, end);
  const whole = parse(line);
  if (whole !== undefined) {
    entry(whole, fold, scan, window);
    return;
  }
  for (let at = line.indexOf(ENTRY_START, 1); at !== -1; at = line.indexOf(ENTRY_START, at + 1)) {
    const glued = parse(line.slice(at));
    if (glued !== undefined) {
      scan.torn++;
      entry(glued, fold, scan, window);
      return;
    }
  }
  scan.torn++;
}

/** Counts a line whose attempts all passed from its prefix; false when the line needs a full parse. */
function passingLine(bytes: Buffer, start: number, end: number, fold: ReportFold, scan: LedgerScan, window: LineWindow | undefined): boolean {
  if (bytes[end - 1] !== 0x7d || bytes.indexOf(START, start) !== start) return false;
  const line = bytes.subarray(start, end);
  if (line.indexOf(START, 1) !== -1) return false; // a torn fragment glued to an entry (or a text holding `{"v":`)
  if (line[START.length] === 0x33) return embeddedLine(line, fold, scan, window); // "3"
  for (const key of SLOW_KEYS) if (line.indexOf(key) !== -1) return false;
  const repairs = line.lastIndexOf(REPAIRS);
  if (repairs === -1) return false;
  const match = PREFIX.exec(line.toString("latin1", 0, Math.min(line.length, PREFIX_BYTES)));
  if (match === null) return false;
  const verdict = match[4] as string;
  if (verdict === "open") return false;
  // The attempts are objects, as the runtime writes them: `[{"raw":...},{"raw":...}]`, each
  // with its errors list; anything else is read whole, and judged by the full parse.
  const first = match[0].length;
  if (line.indexOf(RAW, first) !== first || line[repairs - 1] !== 0x7d) return false;
  let attempts = 0;
  for (let at = first; at !== -1 && at < repairs; at = line.indexOf(RAW, at + RAW.length)) {
    if (at !== first && (line[at - 1] !== 0x2c || line[at - 2] !== 0x7d)) return false;
    attempts++;
  }
  let lists = 0;
  for (let at = line.indexOf(ERRORS, first); at !== -1 && at < repairs; at = line.indexOf(ERRORS, at + ERRORS.length)) lists++;
  if (lists !== attempts) return false;
  return counted(line, match, PREFIX, attempts, { fold, scan, window });
}

/**
 * A version-3 line counted from its prefix: one attempt that passed, with no repairs; the rest
 * of the line is the model's text, not read (its keys could be anything, `"failure":` too).
 */
function embeddedLine(line: Buffer, fold: ReportFold, scan: LedgerScan, window: LineWindow | undefined): boolean {
  const match = EMBEDDED_PREFIX.exec(line.toString("latin1", 0, Math.min(line.length, PREFIX_BYTES)));
  if (match === null || match[4] === "open") return false;
  return counted(line, match, EMBEDDED_PREFIX, 1, { fold, scan, window });
}

/** Adds a passing line found by its prefix (`match` of `prefix`) to the fold; false when its tool name does not decode (the full parse judges it). */
function counted(
  line: Buffer,
  match: RegExpExecArray,
  prefix: RegExp,
  attempts: number,
  into: { fold: ReportFold; scan: LedgerScan; window: LineWindow | undefined },
): boolean {
  const [, chain, toolText, startedAt, verdict] = match as unknown as [string, string, string, string, string];
  let tool = toolText;
  // Escapes and non-ASCII names are decoded as JSON text is (the prefix was read as latin1).
  if (/[\\\u0080-\u00ff]/.test(toolText)) {
    const exact = prefix.exec(line.toString("utf8", 0, Math.min(line.length, PREFIX_BYTES * 4)));
    if (exact === null) return false;
    try {
      tool = JSON.parse(`"${exact[2]}"`) as string;
    } catch {
      return false;
    }
  }
  into.scan.entries++;
  const started = Date.parse(startedAt);
  if (into.window !== undefined && !inWindow(started, into.window)) return true;
  into.fold.addPassing(chain, tool, verdict, started, attempts);
  return true;
}

function entry(value: Record<string, unknown>, fold: ReportFold, scan: LedgerScan, window: LineWindow | undefined): void {
  scan.entries++;
  if (window !== undefined) {
    const startedAt = value.startedAt;
    if (!inWindow(typeof startedAt === "string" ? Date.parse(startedAt) : Number.NaN, window)) return;
  }
  fold.add(value);
}

/** As `withinWindow` (report.ts): an entry without a readable start time is outside any window. */
function inWindow(started: number, window: LineWindow): boolean {
  if (Number.isFinite(started) && (window.oldest === undefined || started < window.oldest)) window.oldest = started;
  return started >= window.since;
}

/** The runtime reader's own parse of one line (every version; a version-3 line as the clean entry it stands for). */
function parse(text: string): Record<string, unknown> | undefined {
  return parseLine(text) as Record<string, unknown> | undefined;
}
