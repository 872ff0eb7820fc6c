// The ledger in a real PostgreSQL server (a throwaway cluster this file starts): a writer process
// killed with SIGKILL in the middle of its batches has lost no entry whose outcome it returned,
// and a reader finds no torn entry; entries are the JSON lines the JSONL sink writes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../generator/cli.ts";
import { openPostgresStores, type PostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice } from "../../generated/index.js";
import { postgresMissing, startCluster, type Cluster } from "../helpers/postgres-cluster.ts";
import { startWorker } from "./processes.ts";

const missing = postgresMissing();
let cluster: Cluster;
let stores: PostgresStores;

describe.skipIf(missing !== undefined)("the ledger in PostgreSQL", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    stores = await openPostgresStores(cluster.url);
  });
  afterAll(async () => {
    await stores?.close();
    cluster?.destroy();
  });

  it("loses no returned entry and shows no torn one when its writer is killed mid-batch, three times over", async () => {
    const returned: string[] = [];
    for (let round = 0; round < 3; round++) {
      const writer = startWorker("ledger-writer.ts", [cluster.url]);
      for (let lines = 0; lines < 150 + round * 50; lines++) returned.push(await writer.line());
      writer.child.kill("SIGKILL");
      await writer.exited;
    }
    const rows = await stores.sql<{ entry: string }[]>`SELECT entry FROM toolguard_ledger`;
    const entries = rows.map((row) => JSON.parse(row.entry) as { turn: string; verdict: string; tool: string });
    const turns = new Set(entries.map((entry) => entry.turn));
    const failed = returned.filter((line) => line.startsWith("validation_failed"));
    expect(failed.length).toBeGreaterThan(100);
    expect(returned.filter((line) => !turns.has(line.split(" ")[1] as string))).toEqual([]);
    expect(entries.every((entry) => entry.tool === "create_invoice" && typeof entry.verdict === "string")).toBe(true);
  });

  it("without durable: true, loses no returned failure entry when its writer is killed mid-batch: failures wait on written()", async () => {
    const returned: string[] = [];
    for (let round = 0; round < 3; round++) {
      const writer = startWorker("ledger-writer.ts", [cluster.url, "write-through"]);
      for (let lines = 0; lines < 150 + round * 50; lines++) returned.push(await writer.line());
      writer.child.kill("SIGKILL");
      await writer.exited;
    }
    const rows = await stores.sql<{ turn: string }[]>`SELECT entry::jsonb ->> 'turn' AS turn FROM toolguard_ledger WHERE entry::jsonb ->> 'turn' LIKE 'kill:%'`;
    const turns = new Set(rows.map((row) => row.turn));
    const failed = returned.filter((line) => line.startsWith("validation_failed"));
    expect(failed.length).toBeGreaterThan(100);
    expect(failed.filter((line) => !turns.has(line.split(" ")[1] as string))).toEqual([]);
  });

  it("writes a failed chain's entry as the JSONL sink writes its line", async () => {
    const tool = createInvoice.implement(() => ({ invoice: "inv_1" }), { ledger: stores.ledger, resolvers: { customer: () => [] } });
    await tool.call('{"amount": "1,299.00"}', { turn: "line-shape" });
    await stores.ledger.flush();
    const [row] = await stores.sql<{ entry: string; chain: string }[]>`SELECT entry, chain FROM toolguard_ledger WHERE entry::jsonb ->> 'turn' = 'line-shape'`;
    expect(JSON.parse(row?.entry ?? "{}")).toMatchObject({ tool: "create_invoice", turn: "line-shape", verdict: "open", chain: row?.chain });
  });

  it("keeps entries queued while the database is stopped, and writes them once it is back", async () => {
    const warnings: string[] = [];
    const sink = (await openPostgresStores(cluster.url, { ledger: { onError: (error) => warnings.push(error.message) } })).ledger;
    const tool = createInvoice.implement(() => ({ invoice: "inv_1" }), { ledger: sink, resolvers: { customer: () => [] } });
    cluster.stop("fast");
    try {
      await tool.call('{"amount": "x"}', { turn: "while-down" });
      await expect(sink.flush()).rejects.toThrow(/1 ledger entries are not written to PostgreSQL yet/);
      expect(sink.writable()).toBe(false);
    } finally {
      cluster.start();
    }
    for (let tries = 0; tries < 600; tries++) {
      try {
        await sink.flush();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(await stores.sql`SELECT 1 FROM toolguard_ledger WHERE entry::jsonb ->> 'turn' = 'while-down'`).toHaveLength(1);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it("is read by toolguard report (--ledger postgres://...) exactly as the same entries in a JSONL file are", async () => {
    const rows = await stores.sql<{ entry: string }[]>`SELECT entry FROM toolguard_ledger ORDER BY id`;
    const dir = mkdtempSync(path.join(tmpdir(), "toolguard-report-"));
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      writeFileSync(path.join(dir, "ledger.jsonl"), rows.map((row) => `${row.entry}\n`).join(""));
      expect(await main(["report", "--ledger", cluster.url, "--json"], dir)).toBe(0);
      expect(await main(["report", "ledger.jsonl", "--json"], dir)).toBe(0);
      const [fromPostgres, fromFile] = out.mock.calls.map(([text]) => (JSON.parse(String(text)) as { tools: { tool: string; calls: number }[] }).tools);
      expect(fromPostgres).toEqual(fromFile);
      expect(fromPostgres?.[0]).toMatchObject({ tool: "create_invoice" });
      expect(fromPostgres?.[0]?.calls).toBeGreaterThan(100); // the killed writers' entries, from the first test
    } finally {
      out.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says what is wrong when the database holds no ledger, without the password, and exits 1", async () => {
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await stores.sql`CREATE DATABASE empty`;
      const url = `postgres://toolguard:secret@127.0.0.1:${cluster.port}/empty`;
      expect(await main(["report", url], tmpdir())).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(
        /cannot read the ledger at postgres:\/\/toolguard:\*\*\*@127\.0\.0\.1:\d+\/empty: that database holds no toolguard ledger/,
      );
      expect(await main(["generate", "--ledger", url], tmpdir())).toBe(2);
    } finally {
      err.mockRestore();
    }
  });
});
