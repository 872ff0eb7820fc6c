// `toolguard report`: a ledger (a JSONL file with its rotated files, or the postgres extra's
// table) read into failure rates per tool and rule, with `--since` and what the read skipped.
import { existsSync } from "node:fs";
import path from "node:path";
import { DEFAULT_LEDGER_PATH, scanLedger } from "../templates/runtime/ledger/ledger-jsonl.ts";
import type { LedgerEntry } from "../templates/runtime/ledger/ledger.ts";
import { buildReportFrom, formatReport, parseWindow, windowShortfall, withinWindow, type WindowScan } from "./report.ts";
import { ReportTally } from "./report-stream.ts";

export async function report(args: readonly string[], json: boolean, cwd: string, sinceText: string | undefined): Promise<number> {
  if (args.length > 1) {
    process.stderr.write(`toolguard: report takes one ledger file, got ${args.length}\n`);
    return 2;
  }
  const window = sinceText === undefined ? undefined : parseWindow(sinceText);
  if (sinceText !== undefined && window === undefined) {
    process.stderr.write(`toolguard: --since takes a duration such as 90m, 24h or 7d, got ${JSON.stringify(sinceText)}\n`);
    return 2;
  }
  if (args[0] !== undefined && /^postgres(ql)?:\/\//.test(args[0])) return reportFromPostgres(args[0], json, window);
  const file = path.resolve(cwd, args[0] ?? DEFAULT_LEDGER_PATH);
  if (!existsSync(file)) {
    process.stderr.write(`toolguard: no ledger at ${file} (the guard writes .toolguard/ledger.jsonl in its working directory)\n`);
    return 1;
  }
  try {
    const scan = { entries: 0, torn: 0 };
    const tally = new ReportTally();
    const now = Date.now();
    const since = window === undefined ? undefined : now - window;
    const windowScan: WindowScan = { oldest: undefined };
    const entries = ledgerFiles(file, scan);
    const reports = await buildReportFrom(since === undefined ? entries : withinWindow(entries, since, windowScan), tally);
    if (scan.torn > 0) process.stderr.write(`toolguard: skipped ${scan.torn} torn fragment${scan.torn === 1 ? "" : "s"} in ${file} (a writer died mid-line)\n`);
    if (tally.malformed > 0)
      process.stderr.write(
        `toolguard: skipped ${tally.malformed} entr${tally.malformed === 1 ? "y" : "ies"} in ${file} whose fields have the wrong type (not written by toolguard, or edited)\n`,
      );
    const short = since === undefined ? undefined : windowShortfall(since, now, windowScan.oldest);
    if (short) process.stderr.write(`toolguard: the report's window is shorter than asked: ${short}\n`);
    sayChainStoreMarks(tally);
    process.stdout.write(json ? `${JSON.stringify(reports, null, 2)}\n` : formatReport(reports));
    return 0;
  } catch (error) {
    process.stderr.write(`toolguard: cannot read the ledger ${file}: ${(error as Error).message}\n`);
    return 1;
  }
}

/** The ledger's entries, oldest file first: its rotated files (`<file>.N` ... `<file>.1`), then the file. */
async function* ledgerFiles(file: string, scan: { entries: number; torn: number }): AsyncGenerator<LedgerEntry> {
  const rotated: string[] = [];
  for (let index = 1; existsSync(`${file}.${index}`); index++) rotated.unshift(`${file}.${index}`);
  for (const one of [...rotated, file]) yield* scanLedger(one, scan);
}

/** `toolguard report postgres://...`: the ledger the postgres extra writes, read as a JSONL file is. */
async function reportFromPostgres(url: string, json: boolean, window: number | undefined): Promise<number> {
  const where = redactedUrl(url);
  let scanPostgresLedger: typeof import("../templates/extras/postgres/read-ledger.ts")["scanPostgresLedger"];
  try {
    ({ scanPostgresLedger } = await import("../templates/extras/postgres/read-ledger.ts"));
  } catch (error) {
    process.stderr.write(`toolguard: reading a ledger from PostgreSQL needs the postgres driver (npm install postgres): ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const scan = { entries: 0, torn: 0 };
    const now = Date.now();
    const since = window === undefined ? undefined : now - window;
    const windowScan: WindowScan = { oldest: undefined };
    const entries = scanPostgresLedger(url, scan);
    const tally = new ReportTally();
    const reports = await buildReportFrom(since === undefined ? entries : withinWindow(entries, since, windowScan), tally);
    if (scan.torn > 0) process.stderr.write(`toolguard: skipped ${scan.torn} row${scan.torn === 1 ? "" : "s"} of ${where} that hold no ledger entry\n`);
    const short = since === undefined ? undefined : windowShortfall(since, now, windowScan.oldest);
    if (short) process.stderr.write(`toolguard: the report's window is shorter than asked: ${short}\n`);
    sayChainStoreMarks(tally);
    process.stdout.write(json ? `${JSON.stringify(reports, null, 2)}\n` : formatReport(reports));
    return 0;
  } catch (error) {
    process.stderr.write(`toolguard: cannot read the ledger at ${where}: ${(error as Error).message}\n`);
    return 1;
  }
}

/** The ledger's marks of a shared chain store's outage (ledger/store-mark.ts): the bound was each process's own then. */
function sayChainStoreMarks(tally: ReportTally): void {
  const marks = tally.chainStoreMarks;
  if (marks === 0) return;
  process.stderr.write(
    `toolguard: ${marks} call${marks === 1 ? " was" : "s were"} bounded by ${marks === 1 ? "its" : "their"} process alone: the shared chain store was unavailable (ledger entries with verdict chain_store_unavailable)\n`,
  );
}

/** A database URL for messages: the password replaced. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable postgres:// URL)";
  }
}
