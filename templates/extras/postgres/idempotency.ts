// Idempotency records in PostgreSQL: key -> fingerprint -> result, shared by every replica. A
// claim is one statement: it inserts a running record, or takes over an expired one (a stale
// result, or a run whose lease ran out), or else reads what holds the key. Two replicas
// claiming one key at once are ordered by the primary key: one runs, the other sees it running
// (`busy`, and the gate asks again until it can replay the result) or sees another payload
// (`conflict`).
import type { Sql } from "postgres";
import { DEFAULT_IDEMPOTENCY_TTL_MS, type Claim, type IdempotencyStore } from "../../runtime/index.ts";
import { nulFree } from "./nul-free.ts";

export interface PostgresIdempotencyOptions {
  /** How long a stored result is kept, in milliseconds. Default one day. */
  readonly ttlMs?: number;
  /** How long a run may hold a key before another replica may take it over. Default 5 minutes. */
  readonly leaseMs?: number;
}

interface Row {
  readonly claimed: boolean;
  readonly fingerprint: string;
  readonly state: string;
  readonly result: string | null;
}

/** A claim that read nothing (the holder released it between the two halves): asked again this many times. */
const CLAIM_TRIES = 5;

export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #sql: Sql;
  readonly #ttlMs: number;
  readonly #leaseMs: number;

  constructor(sql: Sql, options: PostgresIdempotencyOptions = {}) {
    this.#sql = sql;
    this.#ttlMs = options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
    this.#leaseMs = options.leaseMs ?? 5 * 60 * 1000;
  }

  async claim(tool: string, rawKey: string, fingerprint: string): Promise<Claim> {
    const key = nulFree(rawKey);
    for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
      const rows = await this.#sql<Row[]>`
        WITH claimed AS (
          INSERT INTO toolguard_idempotency AS r (tool, key, fingerprint, state, result, expires_at)
          VALUES (${tool}, ${key}, ${fingerprint}, 'running', NULL, now() + ${this.#leaseMs} * interval '1 millisecond')
          ON CONFLICT (tool, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', result = NULL, expires_at = excluded.expires_at
            WHERE r.expires_at <= now()
          RETURNING true AS claimed, fingerprint, state, result
        )
        SELECT claimed, fingerprint, state, result FROM claimed
        UNION ALL
        SELECT false, fingerprint, state, result FROM toolguard_idempotency
          WHERE tool = ${tool} AND key = ${key} AND NOT EXISTS (SELECT 1 FROM claimed)`;
      const row = rows[0];
      // Nothing claimed and nothing read: the record was written by a transaction this
      // statement's snapshot predates, or released meanwhile. Ask again.
      if (row === undefined) continue;
      if (row.claimed) return { kind: "run" };
      if (row.fingerprint !== fingerprint) return { kind: "conflict", fingerprint: row.fingerprint };
      return row.state === "running" ? { kind: "busy" } : { kind: "replay", result: JSON.parse(row.result ?? "null") };
    }
    throw new Error(`toolguard: ${tool} idempotency key ${rawKey} could be neither claimed nor read after ${CLAIM_TRIES} tries`);
  }

  async complete(tool: string, rawKey: string, fingerprint: string, result: unknown): Promise<void> {
    const key = nulFree(rawKey);
    // `undefined` has no JSON text; it is kept as null, which is what a replay then returns.
    await this.#sql`
      UPDATE toolguard_idempotency SET state = 'done', result = ${JSON.stringify(result) ?? "null"}, expires_at = now() + ${this.#ttlMs} * interval '1 millisecond'
      WHERE tool = ${tool} AND key = ${key} AND fingerprint = ${fingerprint}`;
  }

  async release(tool: string, rawKey: string): Promise<void> {
    const key = nulFree(rawKey);
    await this.#sql`DELETE FROM toolguard_idempotency WHERE tool = ${tool} AND key = ${key} AND state = 'running'`;
  }

  /** Deletes up to 1,000 expired records through the expiry index; returns how many. */
  async sweep(): Promise<number> {
    const deleted = await this.#sql`
      DELETE FROM toolguard_idempotency WHERE (tool, key) IN (
        SELECT tool, key FROM toolguard_idempotency WHERE expires_at < now() ORDER BY expires_at LIMIT 1000
      )`;
    return deleted.count;
  }
}
