// Two MCP server processes on 127.0.0.1, each stateless (a new server per request, as the SDK's
// example does it), sharing one PostgreSQL database (a throwaway cluster this file starts): the
// repair bound holds across them whichever replica a call lands on, concurrent calls of one
// caller through both get exactly one repair, and two callers never share a chain.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startCluster, type Cluster } from "../helpers/postgres-cluster.ts";
import { INVALID, TOOL, VALID } from "../adapters/invoice-script.ts";
import { startWorker, type Worker } from "./processes.ts";

const missing = postgresMissing();
let cluster: Cluster;
let replicas: Worker[] = [];
let urls: URL[] = [];
const clients: Client[] = [];

async function client(url: URL, conversation: string): Promise<Client> {
  const made = new Client({ name: "host", version: "1.0.0" });
  await made.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { "x-conversation-id": conversation } } }));
  clients.push(made);
  return made;
}

async function status(caller: Client, args: string): Promise<Record<string, unknown>> {
  const result = await caller.callTool({ name: TOOL, arguments: JSON.parse(args) as Record<string, unknown> });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}") as Record<string, unknown>;
}

describe.skipIf(missing !== undefined)("stateless MCP replicas sharing PostgreSQL", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    replicas = [startWorker("mcp-replica.ts", [cluster.url]), startWorker("mcp-replica.ts", [cluster.url])];
    urls = await Promise.all(replicas.map(async (replica) => new URL(await replica.line())));
  });
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.close()));
    for (const replica of replicas) replica.child.stdin?.end();
    await Promise.all(replicas.map((replica) => replica.exited));
    cluster?.destroy();
  });

  it("refuses the second failure of a caller on the other replica, and keeps other callers apart", async () => {
    const [one, two] = urls as [URL, URL];
    const aliceOnOne = await client(one, "alice");
    const aliceOnTwo = await client(two, "alice");
    const bobOnTwo = await client(two, "bob");
    expect(await status(aliceOnOne, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
    expect(await status(aliceOnTwo, INVALID)).toMatchObject({ status: "arguments_rejected", attempts: 2 });
    expect(await status(aliceOnOne, INVALID)).toMatchObject({ status: "arguments_rejected" });
    expect(await status(bobOnTwo, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1 });
    // A correct call after the refusal runs, on either replica, and the next failure starts over.
    expect(await status(aliceOnTwo, VALID)).toMatchObject({ status: "ok" });
    expect(await status(aliceOnOne, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1 });
  });

  it("answers 16 concurrent failing calls of one caller, spread over both replicas, with exactly one repair", async () => {
    const callers = await Promise.all(Array.from({ length: 4 }, (_, index) => client(urls[index % 2] as URL, "carol")));
    const answers = await Promise.all(Array.from({ length: 16 }, (_, index) => status(callers[index % 4] as Client, INVALID)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === "validation_failed")).toHaveLength(1);
    expect(statuses.filter((status) => status === "arguments_rejected")).toHaveLength(15);
  });

  it("writes both replicas' ledger entries to the one database, where they can be queried together", async () => {
    const sql = postgres(cluster.url, { onnotice: () => undefined });
    try {
      // The sinks write in batches off the call's path; wait until carol's refused chain is there.
      let rows: { turn: string; verdict: string }[] = [];
      for (let tries = 0; tries < 600 && !rows.some((row) => row.verdict === "rejected"); tries++) {
        rows = await sql<{ turn: string; verdict: string }[]>`
          SELECT entry::jsonb ->> 'turn' AS turn, entry::jsonb ->> 'verdict' AS verdict FROM toolguard_ledger WHERE entry::jsonb ->> 'turn' LIKE 'mcp:id:carol:%'`;
        if (!rows.some((row) => row.verdict === "rejected")) await sql`SELECT pg_sleep(0.05)`;
      }
      expect(rows.some((row) => row.verdict === "rejected")).toBe(true);
    } finally {
      await sql.end();
    }
  });

  it("falls back to each replica's own bound while the database is stopped: answers, never errors, never unbounded", async () => {
    const [one, two] = urls as [URL, URL];
    const daveOnOne = await client(one, "dave");
    const daveOnTwo = await client(two, "dave");
    cluster.stop("fast");
    try {
      expect(await status(daveOnOne, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1 });
      expect(await status(daveOnOne, INVALID)).toMatchObject({ status: "arguments_rejected" });
      expect(await status(daveOnOne, INVALID)).toMatchObject({ status: "arguments_rejected" });
      // The other replica's bound is its own while they cannot share one: one more repair there, then refused.
      expect(await status(daveOnTwo, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1 });
      expect(await status(daveOnTwo, INVALID)).toMatchObject({ status: "arguments_rejected" });
      expect(await status(daveOnTwo, VALID)).toMatchObject({ status: "ok" });
    } finally {
      cluster.start();
    }
  });
});
