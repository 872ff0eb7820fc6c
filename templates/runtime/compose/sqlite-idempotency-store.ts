// The durable idempotency store: one SQLite file through Node's built-in `node:sqlite`, so no
// driver is installed and nothing native is built. Several processes may share the file: a
// claim is one `BEGIN IMMEDIATE` transaction, and a run that died holding a key loses it when
// its lease runs out. `node:sqlite` is loaded only when a store is opened, so packages that
// never open one never load it.
import type { Claim, IdempotencyStore } from "./idempotency-store.ts";
import { DEFAULT_IDEMPOTENCY_TTL_MS } from "./idempotency-store.ts";

/** Options of `openSqliteIdempotencyStore`. */
export interface SqliteIdempotencyOptions {
  /** How long a stored result is kept, in milliseconds. Default one day. */
  readonly ttlMs?: number;
  /** How long a run may hold a key before another process may take it over. Default 5 minutes. */
  readonly leaseMs?: number;
  /** How long to wait for another process's write lock, in milliseconds. Default 5,000. */
  readonly busyTimeoutMs?: number;
}

interface Row {
  readonly fingerprint: string;
  readonly state: string;
  readonly result: string | null;
  readonly expires_at: number;
}

/** The part of `node:sqlite`'s prepared statement used here. */
interface Statement {
  run(...values: (string | number | null)[]): unknown;
  get(...values: (string | number | null)[]): unknown;
}

/** The part of `node:sqlite`'s synchronous database used here. */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

/** Opens (creating if needed) a SQLite idempotency store at `file`. */
export async function openSqliteIdempotencyStore(file: string, options: SqliteIdempotencyOptions = {}): Promise<SqliteIdempotencyStore> {
  const sqlite = (await import("node:sqlite")) as unknown as { DatabaseSync: new (file: string) => SqliteDatabase };
  return new SqliteIdempotencyStore(new sqlite.DatabaseSync(file), options);
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #db: SqliteDatabase;
  readonly #ttlMs: number;
  readonly #leaseMs: number;
  readonly #select: Statement;
  readonly #upsert: Statement;
  readonly #finish: Statement;
  readonly #remove: Statement;

  constructor(db: SqliteDatabase, options: SqliteIdempotencyOptions = {}) {
    this.#db = db;
    this.#ttlMs = options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
    this.#leaseMs = options.leaseMs ?? 5 * 60 * 1000;
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(
      "CREATE TABLE IF NOT EXISTS toolguard_idempotency (tool TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, " +
        "state TEXT NOT NULL, result TEXT, expires_at INTEGER NOT NULL, PRIMARY KEY (tool, key))",
    );
    this.#select = db.prepare("SELECT fingerprint, state, result, expires_at FROM toolguard_idempotency WHERE tool = ? AND key = ?");
    this.#upsert = db.prepare(
      "INSERT INTO toolguard_idempotency (tool, key, fingerprint, state, result, expires_at) VALUES (?, ?, ?, 'running', NULL, ?) " +
        "ON CONFLICT (tool, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', result = NULL, expires_at = excluded.expires_at",
    );
    this.#finish = db.prepare("UPDATE toolguard_idempotency SET state = 'done', result = ?, expires_at = ? WHERE tool = ? AND key = ? AND fingerprint = ?");
    this.#remove = db.prepare("DELETE FROM toolguard_idempotency WHERE tool = ? AND key = ? AND state = 'running'");
  }

  claim(tool: string, key: string, fingerprint: string): Claim {
    const now = Date.now();
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const row = this.#select.get(tool, key) as Row | undefined;
      // An expired row (a stale result, or a run whose lease ran out) is as good as none.
      if (row && row.expires_at > now) {
        const claim: Claim =
          row.fingerprint !== fingerprint
            ? { kind: "conflict", fingerprint: row.fingerprint }
            : row.state === "running"
              ? { kind: "busy" }
              : { kind: "replay", result: JSON.parse(row.result ?? "null") };
        this.#db.exec("COMMIT");
        return claim;
      }
      this.#upsert.run(tool, key, fingerprint, now + this.#leaseMs);
      this.#db.exec("COMMIT");
      return { kind: "run" };
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  complete(tool: string, key: string, fingerprint: string, result: unknown): void {
    // `undefined` has no JSON text; it is kept as null, which is what a replay then returns.
    this.#finish.run(JSON.stringify(result) ?? "null", Date.now() + this.#ttlMs, tool, key, fingerprint);
  }

  release(tool: string, key: string): void {
    this.#remove.run(tool, key);
  }

  close(): void {
    this.#db.close();
  }
}
