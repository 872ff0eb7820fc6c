// Figure 10, one process: the cost of the shared stores (issue 28). The README's MCP server
// (serveGuardedTools on an McpServer, a real SDK Client over the in-memory transport) with the
// invoice tool, once with the embedded stores (chains in this process, MemoryIdempotencyStore,
// the JSONL sink) and once with the PostgreSQL ones (`chains`, idempotency and ledger from the
// postgres extra, on a throwaway cluster on 127.0.0.1 started here), 1, 4 and 16 clients
// calling at once, each client on a server of its own (its own caller). Valid path: the
// invoice (a distinct amount per call), its chain closed (PostgreSQL: the awaited round trip);
// "idempotent": the same with idempotency records (claim and completion: two more round trips).
// Failed path: the brief's wrong invoice, each failure counted (PostgreSQL: one statement).
// Calls per second and p99 latency per call, phases interleaved. Prints one JSON line.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serveGuardedTools, type McpToolsOptions } from "../../generated/extras/mcp/index.js";
import { openPostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice, JsonlFileSink, MemoryIdempotencyStore, type DescribedTool, type IdempotencyStore, type LedgerSink } from "../../generated/index.js";
import { INVALID, VALID } from "../../test/adapters/invoice-script.ts";
import { postgresMissing, startCluster } from "../../test/helpers/postgres-cluster.ts";

const SMOKE = process.env["TOOLGUARD_BENCH_SMOKE"] === "1";
const PHASE_MS = SMOKE ? 100 : 2000;
const WORKERS = [1, 4, 16] as const;

interface Phase {
  calls: number;
  callsPerSecond: number;
  p99Ms: number;
}

const why = postgresMissing();
if (why !== undefined) {
  console.log(JSON.stringify({ skipped: why }));
  process.exit(0);
}
const cluster = await startCluster();
const scratch = mkdtempSync(path.join(tmpdir(), "toolguard-bench-stores-"));
const pg = await openPostgresStores(cluster.url);
const jsonl = new JsonlFileSink({ path: path.join(scratch, "ledger.jsonl") });
const stores = {
  // Every idempotent call runs under a key of its own, and the memory store forgets no live key
  // (it refuses a new one once `maxEntries` unexpired records are held): one store for every phase
  // filled its default 100,000 on a quiet machine and failed the run. Each phase gets a fresh one,
  // sized past what a phase of PHASE_MS can claim.
  embedded: { ledger: jsonl as LedgerSink, idempotency: () => new MemoryIdempotencyStore({ maxEntries: 10_000_000 }) as IdempotencyStore, chains: undefined },
  postgres: { ledger: pg.ledger as LedgerSink, idempotency: () => pg.idempotency as IdempotencyStore, chains: pg.chains },
};
const resolvers = { customer: (text: string) => (text === "Acme BV" ? [{ id: "cus_00181", label: "Acme BV (Rotterdam)" }] : []) };
const args = { valid: JSON.parse(VALID) as Record<string, unknown>, failed: JSON.parse(INVALID) as Record<string, unknown> };

type Route = "valid" | "idempotent" | "failed";

async function clients(kind: keyof typeof stores, count: number, route: Route): Promise<Client[]> {
  const { ledger, idempotency, chains } = stores[kind];
  const tool: DescribedTool = createInvoice.implement(() => ({ invoice: "inv_1" }), {
    ledger,
    ...(route === "idempotent" && { idempotency: { store: idempotency() } }),
    resolvers,
  });
  return Promise.all(
    Array.from({ length: count }, async () => {
      const server = new McpServer({ name: "billing-tools", version: "1.0.0" });
      serveGuardedTools(server, [tool], { chains } as McpToolsOptions);
      const client = new Client({ name: "bench", version: "1.0.0" });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      return client;
    }),
  );
}

async function phase(kind: keyof typeof stores, path: Route, count: number): Promise<Phase> {
  const callers = await clients(kind, count, path);
  const latencies: number[] = [];
  const expected = path === "failed";
  const end = performance.now() + PHASE_MS;
  const start = performance.now();
  await Promise.all(
    callers.map(async (client) => {
      while (performance.now() < end) {
        const before = performance.now();
        // Distinct intents: a valid call runs under a key of its own, as real traffic does.
        const sent = path === "failed" ? args.failed : { ...args.valid, amount: 1 + next++ };
        const result = await client.callTool({ name: "create_invoice", arguments: sent });
        latencies.push(performance.now() - before);
        if ((result.isError === true) !== expected) throw new Error(`${kind} ${path}: unexpected result ${JSON.stringify(result.content)}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(callers.map((client) => client.close()));
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    callsPerSecond: latencies.length / seconds,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? Number.NaN,
  };
}

let next = 0;
const results: Record<string, Phase> = {};
try {
  // Untimed: the tool module loads on first use, the pool connects, statements are prepared.
  for (const kind of ["embedded", "postgres"] as const) for (const path of ["valid", "idempotent", "failed"] as const) await phase(kind, path, 1);
  for (const count of WORKERS)
    for (const path of ["valid", "idempotent", "failed"] as const)
      for (const kind of ["embedded", "postgres"] as const) results[`${path}:${count}:${kind}`] = await phase(kind, path, count);
  await Promise.all([jsonl.flush(), pg.ledger.flush()]);
} finally {
  await pg.close();
  await jsonl.close();
  cluster.destroy();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(JSON.stringify(results));
