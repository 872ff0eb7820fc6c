// The generated package behind a real MCP server (the official SDK, client and server linked
// in memory): the client lists the tools with their schemas, a bad call comes back as an
// explained error result and never reaches the implementation, the repaired call succeeds.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolServer } from "../../examples/mcp-server.ts";
import { MemorySink, searchTickets } from "../../generated/index.js";

const received: unknown[] = [];
const ledger = new MemorySink();
const client = new Client({ name: "test-client", version: "1.0.0" });

beforeAll(async () => {
  const guarded = searchTickets.implement((args) => {
    received.push(args);
    return { tickets: [{ id: 7, subject: "Refund" }] };
  }, { ledger });
  const server = createToolServer([{ definition: searchTickets, guarded }]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});
afterAll(() => client.close());

describe("an MCP server of guarded tools", () => {
  it("lists each tool with the schema the model sees", async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual([expect.objectContaining({ name: "search_tickets", description: searchTickets.description, inputSchema: searchTickets.inputSchema })]);
  });

  it("answers a bad call with the explained envelope, then runs the repaired one", async () => {
    const bad = await client.callTool({ name: "search_tickets", arguments: { priority: "URGENT", page: { size: 500 } }, _meta: { turn: "t1" } });
    expect(bad.isError).toBe(true);
    const envelope = JSON.parse((bad.content as { text: string }[])[0]?.text ?? "{}");
    expect(envelope).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
    expect(envelope.errors.map((error: { path: string }) => error.path)).toEqual(["/page/size", "/priority"]);
    expect(received).toEqual([]);

    const good = await client.callTool({ name: "search_tickets", arguments: { priority: "urgent", page: { size: 50 } }, _meta: { turn: "t1" } });
    expect(good.isError).toBe(false);
    expect(JSON.parse((good.content as { text: string }[])[0]?.text ?? "{}")).toEqual({ tickets: [{ id: 7, subject: "Refund" }] });
    expect(received).toEqual([{ priority: "urgent", page: { size: 50 } }]);
    expect(ledger.chains().map((entry) => entry.verdict)).toEqual(["repaired"]);
  });
});
