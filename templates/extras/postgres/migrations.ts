// The tables toolguard keeps in PostgreSQL, owned and versioned by toolguard: each migration is
// applied once, in order, in one transaction that holds an advisory lock, so replicas starting
// together migrate once and a half-applied migration never stays. A database migrated by a
// newer toolguard is refused rather than written with an older idea of its tables.
import type { Sql } from "postgres";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "repair chains, idempotency records and ledger entries",
    sql: `
      CREATE TABLE toolguard_chains (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        budget integer NOT NULL,
        expires_at timestamptz NOT NULL
      );
      -- Expired chains are found through this index, never by scanning the table.
      CREATE INDEX toolguard_chains_expires_at ON toolguard_chains (expires_at);
      CREATE TABLE toolguard_idempotency (
        tool text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('running', 'done')),
        result text,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tool, key)
      );
      CREATE INDEX toolguard_idempotency_expires_at ON toolguard_idempotency (expires_at);
      CREATE TABLE toolguard_ledger (
        id bigserial PRIMARY KEY,
        chain text NOT NULL,
        tool text NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        -- The JSON text of the entry, exactly the line the JSONL sink writes (cast it, entry::jsonb, to query it).
        entry text NOT NULL
      );
      CREATE INDEX toolguard_ledger_chain ON toolguard_ledger (chain, id);
    `,
  },
];

/** The advisory lock all toolguard migrations take (an arbitrary constant: "toolguard" in ASCII, folded). */
const MIGRATION_LOCK = 0x746f6f6c;

/** Brings the database's toolguard tables up to the newest migration; returns the version it is at. */
export async function migrate(sql: Sql): Promise<number> {
  const newest = MIGRATIONS.at(-1)?.version ?? 0;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS toolguard_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
    const rows = await tx<{ version: number }[]>`SELECT version FROM toolguard_migrations ORDER BY version`;
    const applied = new Set(rows.map((row) => row.version));
    const highest = rows.at(-1)?.version ?? 0;
    if (highest > newest)
      throw new Error(`toolguard: the database's toolguard tables are at migration ${highest}, newer than this toolguard knows (${newest}); upgrade toolguard`);
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO toolguard_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
    }
    return newest;
  });
}
