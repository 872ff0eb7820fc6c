// The MCP adapter over streamable HTTP on 127.0.0.1, where the transport has real session ids:
// one server per session (as the SDK's stateful transport requires), one guarded tool shared by
// both, and each session keeps its own repair chain, named by its session id in the ledger.
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolServer } from "../../examples/adapters/mcp-server.ts";
import { INVALID, invoiceBench, TOOL } from "./invoice-script.ts";

const bench = invoiceBench();
const transports = new Map<string, StreamableHTTPServerTransport>();
let http: HttpServer;
let url: URL;
const clients: Client[] = [];

beforeAll(async () => {
  http = createServer(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (session) => void transports.set(session, created),
      });
      await toolServer([bench.tool]).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([...transports.values()].map((transport) => transport.close()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

async function session(): Promise<{ client: Client; id: string }> {
  const client = new Client({ name: "host", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  clients.push(client);
  return { client, id: transport.sessionId ?? "" };
}

async function status(client: Client): Promise<unknown> {
  const result = await client.callTool({ name: TOOL, arguments: JSON.parse(INVALID) as Record<string, unknown> });
  return (JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}") as { status: unknown }).status;
}

describe("an MCP server of guarded tools over streamable HTTP", () => {
  it("keeps one repair chain per transport session", async () => {
    const first = await session();
    const second = await session();
    expect(first.id).not.toBe(second.id);
    expect([await status(first.client), await status(first.client), await status(second.client)]).toEqual([
      "validation_failed",
      "arguments_rejected",
      "validation_failed",
    ]);
    const turns = bench.chains().map((entry) => entry.turn);
    expect(turns).toEqual([`mcp:session:${first.id}:${TOOL}:0`, `mcp:session:${second.id}:${TOOL}:0`]);
  });
});
