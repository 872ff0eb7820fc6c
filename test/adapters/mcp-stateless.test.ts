// The MCP SDK's stateless streamable HTTP pattern on 127.0.0.1: a new McpServer and a new
// transport (no session ids) for every request, as the SDK's own example does it. The chain is
// keyed on the identity the deployment names (here a header its gateway sets), so the bound
// holds across the per-request servers and two callers never share a chain; without an
// identity, a call is answered `caller_unknown` and not run, never counted as attempt 1 forever.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { serveGuardedTools, type McpToolsOptions } from "../../generated/extras/mcp/index.js";
import { INVALID, invoiceBench, TOOL, VALID } from "./invoice-script.ts";

const servers: HttpServer[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(servers.map((http) => new Promise<void>((resolve) => http.close(() => resolve()))));
});

/** A stateless endpoint: every request gets a server of its own, then both are closed. */
async function statelessEndpoint(options: McpToolsOptions): Promise<{ url: URL; bench: ReturnType<typeof invoiceBench>; servers: () => number }> {
  const bench = invoiceBench();
  let made = 0;
  const http = createServer(async (request, response) => {
    const server = new McpServer({ name: "billing-tools", version: "1.0.0" });
    serveGuardedTools(server, [bench.tool], options);
    made++;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  servers.push(http);
  return { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), bench, servers: () => made };
}

async function client(url: URL, conversation?: string): Promise<Client> {
  const made = new Client({ name: "host", version: "1.0.0" });
  const headers: Record<string, string> = conversation === undefined ? {} : { "x-conversation-id": conversation };
  await made.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(made);
  return made;
}

async function status(caller: Client, args: string): Promise<unknown> {
  const result = await caller.callTool({ name: TOOL, arguments: JSON.parse(args) as Record<string, unknown> });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}") as { status: unknown };
}

const byHeader: McpToolsOptions["identity"] = (call) => {
  const header = call.requestInfo?.headers["x-conversation-id"];
  return typeof header === "string" ? header : undefined;
};

describe("MCP over stateless streamable HTTP (a new server per request)", () => {
  it("holds the bound across the per-request servers, per caller identity", async () => {
    const endpoint = await statelessEndpoint({ identity: byHeader });
    const alice = await client(endpoint.url, "alice");
    const bob = await client(endpoint.url, "bob");
    expect(await status(alice, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
    expect(await status(alice, INVALID)).toMatchObject({ status: "arguments_rejected", attempts: 2 });
    expect(await status(alice, INVALID)).toMatchObject({ status: "arguments_rejected" });
    // Bob's chain is his own: Alice's failures neither refuse him nor spend his budget.
    expect(await status(bob, VALID)).toMatchObject({ status: "ok", attempts: 1 });
    expect(await status(bob, INVALID)).toMatchObject({ status: "validation_failed", attempts: 1 });
    expect(endpoint.servers()).toBeGreaterThanOrEqual(5);
    expect(endpoint.bench.received).toHaveLength(1);
  });

  it("answers caller_unknown, runs nothing and warns once when no identity names the caller", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const endpoint = await statelessEndpoint({});
      const anonymous = await client(endpoint.url);
      for (const args of [INVALID, INVALID, INVALID, VALID]) {
        const result = await anonymous.callTool({ name: TOOL, arguments: JSON.parse(args) as Record<string, unknown> });
        expect(result.isError).toBe(true);
        expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({ status: "caller_unknown", tool: TOOL });
      }
      expect(endpoint.bench.received).toEqual([]);
      expect(endpoint.bench.chains()).toEqual([]);
      // One warning per server: each request here has a server of its own.
      expect(warn).toHaveBeenCalled();
      expect(warn.mock.calls.every(([text]) => /stateless HTTP \(no session id\).*identity function/.test(String(text)))).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });

  it("answers caller_unknown when the identity function names nobody or throws", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const endpoint = await statelessEndpoint({ identity: byHeader });
      expect(await status(await client(endpoint.url), VALID)).toMatchObject({ status: "caller_unknown" });
      const throwing = await statelessEndpoint({
        identity: () => {
          throw new Error("no token");
        },
      });
      expect(await status(await client(throwing.url, "carol"), VALID)).toMatchObject({ status: "caller_unknown" });
      expect(String(warn.mock.calls.at(-1)?.[0])).toContain("the identity function threw: no token");
      expect([...endpoint.bench.received, ...throwing.bench.received]).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});
