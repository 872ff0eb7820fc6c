// Reads the PostgreSQL ledger as `scanLedger` reads a JSONL file: every entry in the order it was
// written, through a cursor (a fleet's ledger need not fit in memory). What `toolguard report
// --ledger postgres://...` reads. It only reads: a database without toolguard's tables is an
// error that says so, not a migration.
import postgres from "postgres";
import type { LedgerEntry } from "../../runtime/index.ts";
import { parseLine } from "../../runtime/ledger/read-line.ts";

/** What a scan came across; `torn` counts rows whose text is not one entry (a row edited by hand). */
export interface PostgresLedgerScan {
  entries: number;
  torn: number;
}

const CURSOR_ROWS = 1_000;

export async function* scanPostgresLedger(url: string, scan: PostgresLedgerScan = { entries: 0, torn: 0 }): AsyncGenerator<LedgerEntry> {
  const sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => undefined });
  try {
    const [found] = await sql<{ exists: boolean }[]>`SELECT to_regclass('toolguard_ledger') IS NOT NULL AS exists`;
    if (!found?.exists)
      throw new Error("that database holds no toolguard ledger (no table toolguard_ledger; the postgres extra's openPostgresStores creates it)");
    for await (const rows of sql<{ entry: string }[]>`SELECT entry FROM toolguard_ledger ORDER BY id`.cursor(CURSOR_ROWS)) {
      for (const row of rows) {
        const entry = parsed(row.entry);
        if (entry === undefined) scan.torn++;
        else {
          scan.entries++;
          yield entry;
        }
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The row's entry, read as a JSONL line is (every line version, the clean version-3 line among them). */
function parsed(text: string): LedgerEntry | undefined {
  const entry = parseLine(text);
  return entry !== undefined && typeof (entry as { chain?: unknown }).chain === "string" ? entry : undefined;
}
