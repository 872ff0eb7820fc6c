// `toolguard report`: a ledger (a JSONL file with its rotated files, or the postgres extra's
// table) read into failure rates per tool, rule and argument location, with findings, change
// alarms, a CI gate and the outputs: terminal, `--json`, `--markdown`, `--html FILE`.
import { existsSync } from "node:fs";
import path from "node:path";
import { ledgerFiles } from "../templates/runtime/ledger/ledger-files.ts";
import { DEFAULT_LEDGER_PATH } from "../templates/runtime/ledger/ledger-jsonl.ts";
import { parseWindow, windowShortfall, withinWindow, type WindowScan } from "./report.ts";
import { analyse, type Analysis } from "./report/analysis.ts";
import { ReportFold } from "./report/fold.ts";
import { formatMarkdown, gate, type GateResult } from "./report/format-markdown.ts";
import { formatText } from "./report/format-text.ts";
import { foldLedgerFile, type LineWindow } from "./report/read-lines.ts";
import { adviceForSchemas } from "./report/schema-advice.ts";
import { schemaFilesIn } from "./report/schema-files.ts";
import { writeHtmlReport } from "./report/write-html.ts";

/** What `toolguard report` was asked for (its command-line options). */
export interface ReportOptions {
  /** Print the analysis as JSON. */
  readonly json?: boolean;
  /** Print the analysis as markdown (PR comments, CI summaries). */
  readonly markdown?: boolean;
  /** Also write the self-contained HTML page to this file. */
  readonly html?: string;
  /** `--since`: only chains started within this duration (90m, 24h, 7d). */
  readonly since?: string;
  /** `--fail-above`: exit 1 when any tool has more failed calls per 1000 than this. */
  readonly failAbove?: string;
  /** The folder of tool schema files that findings name (default `schemas/` when present). */
  readonly schemas?: string;
}

export async function report(args: readonly string[], options: ReportOptions, cwd: string): Promise<number> {
  if (args.length > 1) {
    process.stderr.write(`toolguard: report takes one ledger file, got ${args.length}\n`);
    return 2;
  }
  if (options.json && options.markdown) {
    process.stderr.write("toolguard: report prints --json or --markdown, not both\n");
    return 2;
  }
  const window = options.since === undefined ? undefined : parseWindow(options.since);
  if (options.since !== undefined && window === undefined) {
    process.stderr.write(`toolguard: --since takes a duration such as 90m, 24h or 7d, got ${JSON.stringify(options.since)}\n`);
    return 2;
  }
  const limit = options.failAbove === undefined ? undefined : Number(options.failAbove);
  if (options.failAbove !== undefined && (!/^\d+(\.\d+)?$/.test(options.failAbove.trim()) || !Number.isFinite(limit))) {
    process.stderr.write(`toolguard: --fail-above takes failed calls per 1000 calls, such as 10 or 2.5, got ${JSON.stringify(options.failAbove)}\n`);
    return 2;
  }
  const schemasDir = path.resolve(cwd, options.schemas ?? "schemas");
  if (options.schemas !== undefined && !existsSync(schemasDir)) {
    process.stderr.write(`toolguard: --schemas: no folder at ${schemasDir}\n`);
    return 2;
  }
  const html = options.html === undefined ? undefined : path.resolve(cwd, options.html);
  if (html !== undefined && !existsSync(path.dirname(html))) {
    process.stderr.write(`toolguard: --html: no folder ${path.dirname(html)} to write ${path.basename(html)} into\n`);
    return 2;
  }
  const source = args[0];
  const postgres = source !== undefined && /^postgres(ql)?:\/\//.test(source);
  const file = postgres ? undefined : path.resolve(cwd, source ?? DEFAULT_LEDGER_PATH);
  const where = postgres ? redactedUrl(source) : (file as string);
  if (file !== undefined && !existsSync(file) && ledgerFiles(file).length === 0) {
    process.stderr.write(`toolguard: no ledger at ${file} (the guard writes .toolguard/ledger.jsonl in its working directory)\n`);
    return 1;
  }
  const scan = { entries: 0, torn: 0 };
  let entries: AsyncIterable<unknown> = (async function* () {})();
  if (postgres) {
    let scanPostgresLedger: typeof import("../templates/extras/postgres/read-ledger.ts")["scanPostgresLedger"];
    try {
      ({ scanPostgresLedger } = await import("../templates/extras/postgres/read-ledger.ts"));
    } catch (error) {
      process.stderr.write(`toolguard: reading a ledger from PostgreSQL needs the postgres driver (npm install postgres): ${(error as Error).message}\n`);
      return 1;
    }
    entries = scanPostgresLedger(source, scan);
  }
  const now = Date.now();
  const since = window === undefined ? undefined : now - window;
  const windowScan: WindowScan = { oldest: undefined };
  const fold = new ReportFold();
  try {
    if (file !== undefined) {
      const lineWindow: LineWindow | undefined = since === undefined ? undefined : { since, oldest: undefined };
      // Every writer's files (one per process, and their closed files), each writer's in the order it wrote them.
      for (const one of ledgerFiles(file)) await foldLedgerFile(one.file, fold, scan, lineWindow);
      windowScan.oldest = lineWindow?.oldest;
    } else for await (const entry of since === undefined ? entries : withinWindow(entries, since, windowScan)) fold.add(entry);
  } catch (error) {
    process.stderr.write(`toolguard: cannot read the ledger ${postgres ? "at " : ""}${where}: ${(error as Error).message}\n`);
    return 1;
  }
  fold.finish();
  if (scan.torn > 0)
    process.stderr.write(
      postgres
        ? `toolguard: skipped ${scan.torn} row${scan.torn === 1 ? "" : "s"} of ${where} that hold no ledger entry\n`
        : `toolguard: skipped ${scan.torn} torn fragment${scan.torn === 1 ? "" : "s"} in ${where} (a writer died mid-line)\n`,
    );
  if (fold.malformed > 0)
    process.stderr.write(
      `toolguard: skipped ${fold.malformed} entr${fold.malformed === 1 ? "y" : "ies"} in ${where} whose fields have the wrong type (not written by toolguard, or edited)\n`,
    );
  const short = since === undefined ? undefined : windowShortfall(since, now, windowScan.oldest);
  if (short) process.stderr.write(`toolguard: the report's window is shorter than asked: ${short}\n`);
  sayChainStoreMarks(fold);
  const advised = await adviceForSchemas(schemasDir);
  if (advised.unread !== undefined)
    process.stderr.write(`toolguard: no schema advice: ${schemasDir} does not read as a schema set (${advised.unread}); run generate to see why\n`);
  const analysis: Analysis = analyse(fold, schemaFilesIn(schemasDir, cwd), advised.advice);
  const result: GateResult | undefined = limit === undefined ? undefined : gate(analysis, limit);
  if (html !== undefined) {
    try {
      writeHtmlReport(html, analysis);
    } catch (error) {
      process.stderr.write(`toolguard: cannot write the page ${html}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  process.stdout.write(options.json ? `${JSON.stringify(analysis, null, 2)}\n` : options.markdown ? formatMarkdown(analysis, result) : formatText(analysis));
  if (result !== undefined && result.failing.length > 0) {
    process.stderr.write(
      `toolguard: over ${result.limit} failed calls per 1000: ${result.failing.map((tool) => `${JSON.stringify(tool.tool)} (${tool.perThousand})`).join(", ")}\n`,
    );
    return 1;
  }
  return 0;
}

/** The ledger's marks of a shared chain store's outage (ledger/store-mark.ts): the bound was each process's own then. */
function sayChainStoreMarks(fold: ReportFold): void {
  const marks = fold.chainStoreMarks;
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
