import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DescribedTool } from "@acme/agent-tools";
import { serveGuardedTools } from "@acme/agent-tools/mcp";

/** An MCP server for guarded tools; connect it to any transport (stdio, streamable HTTP...). */
export function toolServer(tools: readonly DescribedTool[]): McpServer {
  const server = new McpServer({ name: "billing-tools", version: "1.0.0" });
  serveGuardedTools(server, tools, { repairWindowMs: 5 * 60_000 }); // a failed call's repair must come within 5 minutes
  return server;
}
