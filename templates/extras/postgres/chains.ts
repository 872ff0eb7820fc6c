// Repair chains counted in PostgreSQL: every replica's failed attempt at one chain is one atomic
// statement (INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING), so N processes failing one chain
// at once see N different counts and exactly the budget's worth are answered as repairs. Time is
// the database's clock, the same for every replica. Expired chains are deleted in small batches
// found through the index on `expires_at`, off the call's path.
import type { Sql } from "postgres";
import type { ChainCounter, ChainTally } from "../../runtime/index.ts";
import { nulFree } from "./nul-free.ts";

/** Fails between two sweeps of expired chains (a sweep deletes at most SWEEP_ROWS). */
const SWEEP_EVERY = 1_000;
const SWEEP_ROWS = 1_000;

export class PostgresChainCounter implements ChainCounter {
  readonly #sql: Sql;
  #sinceSweep = 0;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async fail(key: string, budget: number, windowMs: number): Promise<ChainTally> {
    if (++this.#sinceSweep >= SWEEP_EVERY) {
      this.#sinceSweep = 0;
      this.sweep().catch(() => undefined); // a failed sweep only leaves rows for the next one
    }
    // An expired chain is as good as none: it starts over. A failure past the budget (a refused
    // call) is counted but does not move the expiry, so a refusal ends on time.
    const rows = await this.#sql<{ failures: number; budget: number }[]>`
      INSERT INTO toolguard_chains AS c (key, failures, budget, expires_at)
      VALUES (${nulFree(key)}, 1, ${budget}, now() + ${windowMs} * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.failures + 1 END,
        budget = CASE WHEN c.expires_at <= now() THEN excluded.budget ELSE c.budget END,
        expires_at = CASE WHEN c.expires_at <= now() OR c.failures < c.budget THEN excluded.expires_at ELSE c.expires_at END
      RETURNING failures, budget`;
    const row = rows[0];
    if (row === undefined) throw new Error("toolguard: counting a chain's failure returned no row");
    return { failures: row.failures, budget: row.budget };
  }

  async close(key: string): Promise<void> {
    await this.#sql`DELETE FROM toolguard_chains WHERE key = ${nulFree(key)}`;
  }

  /** Deletes up to 1,000 expired chains, oldest first, through the expiry index; returns how many. */
  async sweep(): Promise<number> {
    const deleted = await this.#sql`
      DELETE FROM toolguard_chains WHERE key IN (
        SELECT key FROM toolguard_chains WHERE expires_at < now() ORDER BY expires_at LIMIT ${SWEEP_ROWS}
      )`;
    return deleted.count;
  }
}
