// One replica of a stateless MCP server for mcp-replicas.test.ts: the SDK's server-per-request
// pattern on a free port on 127.0.0.1, the caller named by the gateway's `x-conversation-id`
// header, chains and ledger in the shared PostgreSQL database. Prints its URL, then serves until
// stdin closes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { serveGuardedTools } from "../../generated/extras/mcp/index.js";
import { openPostgresStores } from "../../generated/extras/postgres/index.js";
import { createInvoice } from "../../generated/index.js";

const [url] = process.argv.slice(2) as [string];
const stores = await openPostgresStores(url);
const tool = createInvoice.implement(() => ({ invoice: `inv_${process.pid}` }), {
  ledger: stores.ledger,
  resolvers: { customer: (text) => (text === "Acme BV" ? [{ id: "cus_00181", label: "Acme BV (Rotterdam)" }] : []) },
});
const http = createServer(async (request, response) => {
  const server = new McpServer({ name: "billing-tools", version: "1.0.0" });
  serveGuardedTools(server, [tool], {
    identity: (call) => {
      const header = call.requestInfo?.headers["x-conversation-id"];
      return typeof header === "string" ? header : undefined;
    },
    chains: stores.chains,
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on("close", () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(request, response);
});
http.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
process.stdin.resume();
process.stdin.on("end", async () => {
  http.close();
  await stores.close();
  process.exit(0);
});
