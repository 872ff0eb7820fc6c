// Serving generated tools over MCP with the official SDK: `tools/list` shows each tool as the
// model should see it, `tools/call` goes through the guarded client, and the outcome goes back
// as the tool result (an error result when the arguments were refused, so the client's model
// sees a correction rather than a success).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { toMcpTool, type GuardedTool, type ToolDescriptor } from "../generated/index.js";

export interface ServedTool {
  readonly definition: ToolDescriptor;
  readonly guarded: GuardedTool<unknown>;
}

/**
 * An MCP server for guarded tools. MCP has no conversation turns, so each request is its own
 * turn unless the client passes one in `_meta.turn`: a client that feeds repairs back under the
 * same turn gets the repair bound; one that does not gets one repair per request.
 */
export function createToolServer(tools: readonly ServedTool[]): Server {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const server = new Server({ name: "toolguard-example", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => toMcpTool(tool.definition)) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: `unknown tool ${JSON.stringify(request.params.name)}` }] };
    const turn = typeof request.params._meta?.turn === "string" ? request.params._meta.turn : `mcp:${String(extra.requestId)}`;
    const outcome = await tool.guarded.call(request.params.arguments ?? {}, { turn, signal: extra.signal });
    return {
      isError: outcome.status !== "ok",
      content: [{ type: "text", text: JSON.stringify(outcome.status === "ok" ? outcome.result : outcome) }],
    };
  });
  return server;
}
