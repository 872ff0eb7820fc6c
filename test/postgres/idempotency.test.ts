// Idempotency records in a real PostgreSQL server (a throwaway cluster this file starts): the same
// intent sent at once from several processes runs the tool once and every other call gets its
// result; the same key with other arguments is a conflict, from any process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStores, type PostgresStores } from "../../generated/extras/postgres/index.js";
import { postgresMissing, startCluster, type Cluster } from "../helpers/postgres-cluster.ts";
import { startWorker } from "./processes.ts";

const missing = postgresMissing();
let cluster: Cluster;
let stores: PostgresStores;

async function callers(processes: number, calls: number, amount: number): Promise<{ status: string; result?: { invoice: string } }[]> {
  const workers = Array.from({ length: processes }, () => startWorker("duplicate-caller.ts", [cluster.url, String(calls), String(amount)]));
  for (const worker of workers) expect(await worker.line()).toBe("ready");
  for (const worker of workers) worker.send("go");
  const outcomes = await Promise.all(workers.map(async (worker) => JSON.parse(await worker.line()) as { status: string; result?: { invoice: string } }[]));
  await Promise.all(workers.map((worker) => worker.exited));
  return outcomes.flat();
}

describe.skipIf(missing !== undefined)("idempotency records in PostgreSQL", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    stores = await openPostgresStores(cluster.url);
    await stores.sql`CREATE TABLE invoice_runs (pid integer NOT NULL, customer text NOT NULL)`;
  });
  afterAll(async () => {
    await stores?.close();
    cluster?.destroy();
  });

  it("runs 4 processes x 5 concurrent duplicates once, and answers every one with that run's result", async () => {
    const outcomes = await callers(4, 5, 1299);
    const runs = await stores.sql<{ pid: number }[]>`SELECT pid FROM invoice_runs`;
    expect(runs).toHaveLength(1);
    expect(outcomes).toHaveLength(20);
    expect(outcomes.every((outcome) => outcome.status === "ok" && outcome.result?.invoice === `inv_${runs[0]?.pid}`)).toBe(true);
  });

  it("answers the same intent with other arguments as a conflict, and runs nothing", async () => {
    const outcomes = await callers(2, 2, 1300);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(4).fill("idempotency_conflict"));
    expect(await stores.sql`SELECT 1 FROM invoice_runs`).toHaveLength(1);
  });

  it("lets a claim whose lease ran out be taken over, and frees a released one", async () => {
    const short = await openPostgresStores(cluster.url, { idempotency: { leaseMs: 1 } });
    try {
      expect(await short.idempotency.claim("t", "lease", "f1")).toEqual({ kind: "run" });
      await stores.sql`SELECT pg_sleep(0.01)`;
      expect(await stores.idempotency.claim("t", "lease", "f2")).toEqual({ kind: "run" });
      expect(await stores.idempotency.claim("t", "lease", "f2")).toEqual({ kind: "busy" });
      await stores.idempotency.release("t", "lease");
      expect(await stores.idempotency.claim("t", "lease", "f3")).toEqual({ kind: "run" });
      await stores.idempotency.complete("t", "lease", "f3", undefined);
      expect(await stores.idempotency.claim("t", "lease", "f3")).toEqual({ kind: "replay", result: null });
      expect(await stores.idempotency.claim("t", "lease\u0000nul", "f")).toEqual({ kind: "run" });
    } finally {
      await short.close();
    }
  });
});
