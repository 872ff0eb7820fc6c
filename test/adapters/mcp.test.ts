// The MCP adapter with the real `@modelcontextprotocol/sdk` 1.32: the README's server
// (examples/adapters/mcp-server.ts, an McpServer) and a real Client over a linked in-memory
// transport. The client sends no `_meta`: the repair bound comes from what the server knows
// (session, tool, time since the last counted failure, reset on success), and the envelopes say
// what an MCP client can do (MCP has no turns).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toolServer } from "../../examples/adapters/mcp-server.ts";
import { serveGuardedTools, type McpToolsOptions } from "../../generated/extras/mcp/index.js";
import { createInvoice, MemorySink, type DescribedTool } from "../../generated/index.js";
import { INVALID, INVALID_ENVELOPE, invoiceBench, okOutcome, RECEIVED, REFUSAL, TOOL, VALID } from "./invoice-script.ts";

/** The brief's invoice envelope as an MCP client reads it: no turns, and what a refusal means. */
const MCP_INVALID_ENVELOPE = {
  ...INVALID_ENVELOPE,
  detail:
    "Fix every field listed in errors and call create_invoice again with the complete argument object, not a partial patch. " +
    "This is the last attempt: if it fails too, create_invoice refuses calls whose arguments fail for 5 minutes; a call with correct arguments is still run.",
};
const MCP_REFUSAL = {
  ...REFUSAL,
  detail:
    "The arguments for create_invoice failed 2 times in a row, so create_invoice now refuses calls whose arguments fail, for 5 minutes after the last counted failure. " +
    "Do not resend these arguments. Ask the user for the missing or unclear information the errors name, then call create_invoice with the complete, corrected arguments: " +
    "a call with correct arguments is run at once.",
};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(server: McpServer | Server): Promise<Client> {
  const client = new Client({ name: "test-host", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

/** A server built with the adapter directly, for options the README's server does not set. */
async function serve(tools: readonly DescribedTool[], options: McpToolsOptions): Promise<Client> {
  const server = new McpServer({ name: "t", version: "1.0.0" });
  serveGuardedTools(server, tools, options);
  return connect(server);
}

async function call(client: Client, args: string): Promise<{ isError: boolean; body: unknown }> {
  const result = await client.callTool({ name: TOOL, arguments: JSON.parse(args) as Record<string, unknown> });
  return { isError: result.isError === true, body: JSON.parse((result.content as { text: string }[])[0]?.text ?? "null") };
}

describe("an MCP server of guarded tools, the client sending no _meta", () => {
  it("advertises exactly the generated schema in tools/list", async () => {
    const client = await connect(toolServer([invoiceBench().tool]));
    const { tools } = await client.listTools();
    expect(tools).toEqual([{ name: TOOL, description: createInvoice.description, inputSchema: createInvoice.inputSchema }]);
  });

  it("repairs the brief's invoice on the second call", async () => {
    const bench = invoiceBench();
    const client = await connect(toolServer([bench.tool]));
    expect(await call(client, INVALID)).toEqual({ isError: true, body: MCP_INVALID_ENVELOPE });
    expect(await call(client, VALID)).toEqual({ isError: false, body: okOutcome(2, expect.any(String)) });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1 }]);
  });

  it("refuses after one repair: the envelope saying 'last attempt' is followed by a refusal, and so is every later failing call", async () => {
    const bench = invoiceBench();
    const client = await connect(toolServer([bench.tool]));
    const first = await call(client, INVALID);
    expect(first.body).toMatchObject({ status: "validation_failed", repairsLeft: 1, detail: expect.stringContaining("last attempt") });
    expect(await call(client, INVALID)).toEqual({ isError: true, body: MCP_REFUSAL });
    expect(await call(client, INVALID.replace('"eur"', '"euro"'))).toMatchObject({ isError: true, body: { status: "arguments_rejected" } });
    expect(bench.received).toEqual([]);
    expect(bench.chains()[0]).toMatchObject({ verdict: "rejected", repairs: 1 });
  });

  it("never speaks of turns, which MCP does not have", async () => {
    const client = await connect(toolServer([invoiceBench().tool]));
    const bodies = [await call(client, INVALID), await call(client, INVALID), await call(client, INVALID)].map((reply) => JSON.stringify(reply.body));
    for (const body of bodies) expect(body).not.toMatch(/turn/);
  });

  it("runs a correct call at once after a refusal, as a new chain with a fresh budget", async () => {
    const bench = invoiceBench();
    const client = await connect(toolServer([bench.tool]));
    await call(client, INVALID);
    expect((await call(client, INVALID)).body).toMatchObject({ status: "arguments_rejected" });
    expect(await call(client, VALID)).toEqual({ isError: false, body: okOutcome(1, expect.any(String)) });
    expect(bench.received).toEqual([RECEIVED]);
    expect((await call(client, INVALID)).body).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
    expect(bench.chains().map((entry) => entry.verdict)).toEqual(["rejected", "ok", "open"]);
  });

  it("keeps a refused chain refused to a correct call whose reference fails, and bounds what follows", async () => {
    const bench = invoiceBench();
    const client = await connect(toolServer([bench.tool]));
    const unknownCustomer = VALID.replace("Acme BV", "Nobody Ltd");
    await call(client, INVALID);
    await call(client, INVALID);
    // Valid by the schema, so it gets a new chain; its reference matches nothing: failure 1 of it.
    expect((await call(client, unknownCustomer)).body).toMatchObject({ status: "validation_failed", failure: "semantic", attempts: 1 });
    expect((await call(client, unknownCustomer)).body).toMatchObject({ status: "arguments_rejected" });
    expect((await call(client, INVALID)).body).toMatchObject({ status: "arguments_rejected" });
    expect(bench.received).toEqual([]);
  });

  it("starts a new chain after a success", async () => {
    const bench = invoiceBench();
    const client = await connect(toolServer([bench.tool]));
    await call(client, INVALID);
    await call(client, VALID);
    expect((await call(client, INVALID)).body).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
  });

  it("starts a new chain when the window after a failure has passed, and not before", async () => {
    let now = 0;
    const bench = invoiceBench();
    const client = await serve([bench.tool], { repairWindowMs: 60_000, now: () => now });
    await call(client, INVALID);
    now = 60_000;
    expect((await call(client, INVALID)).body).toMatchObject({ status: "arguments_rejected", detail: expect.stringContaining("for 1 minute after") });
    now = 120_001;
    expect((await call(client, INVALID)).body).toMatchObject({ status: "validation_failed", attempts: 1 });
  });

  it("ends a refusal one window after the refusing failure: refused retries do not extend it", async () => {
    let now = 0;
    const client = await serve([invoiceBench().tool], { repairWindowMs: 60_000, now: () => now });
    await call(client, INVALID);
    await call(client, INVALID); // refused at 0
    for (now = 20_000; now <= 60_000; now += 20_000) expect((await call(client, INVALID)).body).toMatchObject({ status: "arguments_rejected" });
    now = 60_001;
    expect((await call(client, INVALID)).body).toMatchObject({ status: "validation_failed", attempts: 1 });
  });

  it("keeps separate chains for separate sessions sharing one guarded tool", async () => {
    const bench = invoiceBench();
    const [first, second] = [await connect(toolServer([bench.tool])), await connect(toolServer([bench.tool]))];
    await call(first, INVALID);
    expect((await call(first, INVALID)).body).toMatchObject({ status: "arguments_rejected" });
    expect((await call(second, INVALID)).body).toMatchObject({ status: "validation_failed", attempts: 1 });
  });

  it("serves on the low-level Server as on McpServer", async () => {
    const bench = invoiceBench();
    const server = new Server({ name: "low-level", version: "1.0.0" });
    serveGuardedTools(server, [bench.tool]);
    const client = await connect(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([TOOL]);
    expect(await call(client, INVALID)).toEqual({ isError: true, body: MCP_INVALID_ENVELOPE });
    expect(await call(client, VALID)).toEqual({ isError: false, body: okOutcome(2, expect.any(String)) });
  });

  it("answers an unknown tool with the tools it serves", async () => {
    const client = await connect(toolServer([invoiceBench().tool]));
    const result = await client.callTool({ name: "create_invoices", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toEqual({
      status: "unknown_tool",
      tool: "create_invoices",
      available: [TOOL],
      detail: 'There is no tool named "create_invoices". Call one of: "create_invoice".',
    });
  });

  it("refuses a repair window the guard could not honour", () => {
    expect(() => serveGuardedTools(new McpServer({ name: "t", version: "1" }), [], { repairWindowMs: 16 * 60_000 })).toThrow(/at most 900000/);
  });
});

describe("a shared chain store that is down (issue 28)", () => {
  it("answers under the local bound and marks each such call in the ledger it is given", async () => {
    const bench = invoiceBench();
    const marks = new MemorySink();
    const down = { fail: () => Promise.reject(new Error("connection refused")), close: () => Promise.reject(new Error("connection refused")) };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const client = await serve([bench.tool], { chains: down, ledger: marks });
      expect((await call(client, INVALID)).body).toMatchObject({ status: "validation_failed" });
      expect((await call(client, VALID)).body).toMatchObject({ status: "ok" });
    } finally {
      warn.mockRestore();
    }
    await marks.flush();
    expect(marks.entries.map((entry) => [entry.verdict, entry.tool, entry.attempts.length, entry.chainStore?.unavailable])).toEqual([
      ["chain_store_unavailable", TOOL, 0, "connection refused"],
      ["chain_store_unavailable", TOOL, 0, "connection refused"],
    ]);
  });
});
