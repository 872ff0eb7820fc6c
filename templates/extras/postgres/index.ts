// The PostgreSQL stores (`@<package>/postgres`): repair chains, idempotency records and ledger
// entries shared by every replica of a service, through the `postgres` driver (pure JavaScript,
// no native build; an optional peer dependency of the generated package, installed only by users
// who import this entry point). toolguard owns the tables and migrates them on open.
//
//   const stores = await openPostgresStores(process.env.DATABASE_URL);
//   const tool = createInvoice.implement(impl, { ledger: stores.ledger, idempotency: { store: stores.idempotency } });
//   serveGuardedTools(server, [tool], { identity, chains: stores.chains });
//
// docs/replicas.md has the design, the cost of a shared store and what an outage does.
import postgres, { type Options, type Sql } from "postgres";
import { PostgresChainCounter } from "./chains.ts";
import { PostgresIdempotencyStore, type PostgresIdempotencyOptions } from "./idempotency.ts";
import { PostgresLedgerSink, type PostgresLedgerOptions } from "./ledger.ts";
import { migrate, MIGRATIONS } from "./migrations.ts";
import { scanPostgresLedger, type PostgresLedgerScan } from "./read-ledger.ts";

export { migrate, MIGRATIONS, PostgresChainCounter, PostgresIdempotencyStore, PostgresLedgerSink, scanPostgresLedger };
export type { PostgresIdempotencyOptions, PostgresLedgerOptions, PostgresLedgerScan };

export interface PostgresStoresOptions {
  /** Options of the idempotency store (record lifetime, lease). */
  readonly idempotency?: PostgresIdempotencyOptions;
  /** Options of the ledger sink (batch size, queue bound, entry cap). */
  readonly ledger?: PostgresLedgerOptions;
  /**
   * Options passed to the `postgres` driver (pool size `max`, `ssl`, `connect_timeout`...).
   * Default: a pool of 10, a 10-second connect timeout, and notices kept off stderr.
   */
  readonly client?: Options<Record<string, never>>;
}

/** The three stores on one connection pool. */
export interface PostgresStores {
  /** Repair chains, for `serveGuardedTools(..., { chains })`. */
  readonly chains: PostgresChainCounter;
  /** Idempotency records, for `implement(impl, { idempotency: { store } })`. */
  readonly idempotency: PostgresIdempotencyStore;
  /** The ledger, for `implement(impl, { ledger })`. */
  readonly ledger: PostgresLedgerSink;
  /** The driver's pool, for anything else the service keeps in the same database. */
  readonly sql: Sql;
  /** Writes what the ledger holds, then closes the pool. */
  close(): Promise<void>;
}

/** Connects to `url` (a `postgres://` URL), applies toolguard's migrations, and returns the stores. */
export async function openPostgresStores(url: string, options: PostgresStoresOptions = {}): Promise<PostgresStores> {
  if (typeof url !== "string" || !/^postgres(ql)?:\/\//.test(url))
    throw new TypeError(`toolguard: openPostgresStores needs a postgres:// URL; got ${describe(url)}`);
  const sql = postgres(url, { max: 10, connect_timeout: 10, onnotice: () => undefined, ...options.client });
  try {
    await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw new Error(`toolguard: could not prepare the PostgreSQL stores at ${redacted(url)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const ledger = new PostgresLedgerSink(sql, options.ledger);
  return {
    chains: new PostgresChainCounter(sql),
    idempotency: new PostgresIdempotencyStore(sql, options.idempotency),
    ledger,
    sql,
    async close() {
      try {
        await ledger.close();
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/** The URL without its password, for messages. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value).replace(/:[^:@/]*@/, ":***@") : typeof value;
}
