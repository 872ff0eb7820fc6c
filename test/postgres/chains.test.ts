// Repair chains counted in a real PostgreSQL server (a throwaway cluster this file starts): the
// count is atomic across processes, expired chains are found through the expiry index, and a
// server that stops answering leaves each process its own bound, with a warning, never an error.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgresStores, type PostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice, GuardedCounter, MemorySink } from "../../generated/index.js";
import { INVALID, VALID } from "../adapters/invoice-script.ts";
import { postgresMissing, startCluster, type Cluster } from "../helpers/postgres-cluster.ts";
import { startWorker } from "./processes.ts";

const missing = postgresMissing();
let cluster: Cluster;
let stores: PostgresStores;

describe.skipIf(missing !== undefined)("repair chains in PostgreSQL", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    stores = await openPostgresStores(cluster.url);
  });
  afterAll(async () => {
    await stores?.close();
    cluster?.destroy();
  });

  it("gives every one of 4 processes x 10 concurrent failures its own count: exactly one repair, the rest refused", async () => {
    const workers = Array.from({ length: 4 }, () => startWorker("hammer-chain.ts", [cluster.url, "hammered", "10"]));
    for (const worker of workers) expect(await worker.line()).toBe("ready");
    for (const worker of workers) worker.send("go");
    const tallies = (await Promise.all(workers.map(async (worker) => JSON.parse(await worker.line()) as { failures: number; budget: number }[]))).flat();
    await Promise.all(workers.map((worker) => worker.exited));
    expect(tallies.map((tally) => tally.failures).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    // Under the budget of 2, only the first failure is answered with a repair; every other one is refused.
    expect(tallies.filter((tally) => tally.failures < tally.budget)).toHaveLength(1);
  });

  it("implement(impl, { chains }): two replicas of a tool share a turn's bound through PostgreSQL, without the MCP adapter", async () => {
    const replica = () =>
      createInvoice.implement(() => ({ invoice: "inv_1" }), {
        ledger: new MemorySink(),
        chains: stores.chains,
        resolvers: { customer: () => [{ id: "cus_1", label: "Acme BV" }] },
      });
    const [a, b] = [replica(), replica()];
    expect(await a.call(INVALID, { turn: "implement-chains" })).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
    expect(await b.call(INVALID, { turn: "implement-chains" })).toMatchObject({ status: "arguments_rejected" });
    expect(await b.call(VALID, { turn: "implement-chains" })).toMatchObject({ status: "ok" });
    expect(await a.call(INVALID, { turn: "implement-chains" })).toMatchObject({ status: "arguments_rejected" }); // A's own chain is refused
    expect(await b.call(INVALID, { turn: "implement-chains" })).toMatchObject({ status: "validation_failed", attempts: 1 }); // the shared one was closed
  });

  it("keeps the budget its first failure set, starts over once the window passed, and forgets a closed chain", async () => {
    expect(await stores.chains.fail("cut-off", 3, 60_000)).toEqual({ failures: 1, budget: 3 });
    expect(await stores.chains.fail("cut-off", 2, 60_000)).toEqual({ failures: 2, budget: 3 });
    expect(await stores.chains.fail("brief", 2, 1)).toEqual({ failures: 1, budget: 2 });
    await stores.sql`SELECT pg_sleep(0.01)`;
    expect(await stores.chains.fail("brief", 2, 1)).toEqual({ failures: 1, budget: 2 });
    await stores.chains.close("cut-off");
    expect(await stores.chains.fail("cut-off", 2, 60_000)).toEqual({ failures: 1, budget: 2 });
  });

  it("does not extend a refused chain's window by the refused calls", async () => {
    await stores.chains.fail("refused", 2, 60_000);
    await stores.chains.fail("refused", 2, 60_000);
    const expiry = async (): Promise<number | undefined> =>
      (await stores.sql<{ expires_at: Date }[]>`SELECT expires_at FROM toolguard_chains WHERE key = 'refused'`)[0]?.expires_at.getTime();
    const refusedUntil = await expiry();
    await stores.chains.fail("refused", 2, 60_000);
    expect(refusedUntil).toBeDefined();
    expect(await expiry()).toBe(refusedUntil);
  });

  it("sweeps expired chains through the index on expiry, not by scanning the table", async () => {
    await stores.sql`INSERT INTO toolguard_chains SELECT 'old-' || n, 1, 2, now() - interval '1 hour' FROM generate_series(1, 50) AS n`;
    expect(await stores.chains.sweep()).toBeGreaterThanOrEqual(50);
    expect(await stores.sql`SELECT 1 FROM toolguard_chains WHERE key LIKE 'old-%'`).toHaveLength(0);
    // With sequential scans priced out, the planner uses the expiry index if there is one.
    const plan = await stores.sql.begin(async (tx) => {
      await tx`SET LOCAL enable_seqscan = off`;
      return tx<{ "QUERY PLAN": string }[]>`EXPLAIN SELECT key FROM toolguard_chains WHERE expires_at < now() ORDER BY expires_at LIMIT 1000`;
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) toolguard_chains_expires_at/);
  });

  it("migrates once, records the version, and refuses a database a newer toolguard migrated", async () => {
    const again = await openPostgresStores(cluster.url);
    await again.close();
    const sql = postgres(cluster.url, { onnotice: () => undefined });
    try {
      expect(await sql`SELECT version FROM toolguard_migrations`).toEqual([{ version: 1 }]);
      await sql`INSERT INTO toolguard_migrations (version, name) VALUES (99, 'from the future')`;
      await expect(openPostgresStores(cluster.url)).rejects.toThrow(/at migration 99, newer than this toolguard knows \(1\); upgrade toolguard/);
      await sql`DELETE FROM toolguard_migrations WHERE version = 99`;
    } finally {
      await sql.end();
    }
  });

  it("says what is wrong with a URL that is not one, without the password", async () => {
    await expect(openPostgresStores("mysql://root:hunter2@db/x")).rejects.toThrow(/needs a postgres:\/\/ URL; got "mysql:\/\/root:\*\*\*@db\/x"/);
    await expect(openPostgresStores(`postgres://toolguard:hunter2@127.0.0.1:${cluster.port}/no_such_db`)).rejects.toThrow(
      /could not prepare the PostgreSQL stores at postgres:\/\/toolguard:\*\*\*@127\.0\.0\.1:\d+\/no_such_db: .*no_such_db/,
    );
  });

  it("answers without the shared count, warning once, while the server is stopped, and counts again once it is back", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const counter = new GuardedCounter(stores.chains, 2_000);
    try {
      expect(await counter.fail("outage", 2, 60_000)).toEqual({ ok: true, tally: { failures: 1, budget: 2 } });
      cluster.stop("fast");
      const during = [await counter.fail("outage", 2, 60_000), await counter.fail("outage", 2, 60_000)];
      expect(during).toEqual([expect.objectContaining({ ok: false }), expect.objectContaining({ ok: false })]);
      expect(warn.mock.calls.filter(([text]) => /shared chain store is unavailable/.test(String(text)))).toHaveLength(1);
      cluster.start();
      let back = await counter.fail("outage", 2, 60_000);
      // The pool reconnects on the next query; the first may still meet a closed connection.
      for (let tries = 0; !back.ok && tries < 20; tries++) back = await counter.fail("outage", 2, 60_000);
      expect(back).toMatchObject({ ok: true, tally: { failures: 2, budget: 2 } });
      expect(warn.mock.calls.some(([text]) => /answers again/.test(String(text)))).toBe(true);
    } finally {
      warn.mockRestore();
      cluster.start();
    }
  });
});
