// MCP adapter (`@modelcontextprotocol/sdk`, server side): serves guarded tools on a `Server` or
// `McpServer`. `tools/list` advertises each tool's generated schema unchanged; `tools/call` goes
// through the guard, and every outcome that is not ok is an error result.
//
// MCP has no conversation turn, and hosts send no turn id, so the repair bound is built from what
// a server knows: the transport session, the tool, and time. Calls to one tool in one session
// form one repair chain until a call succeeds (the next call starts a new chain) or until
// `repairWindowMs` passes without a call to it after a failed one (a later call starts a new
// chain: the model has moved on). Within the window, a failure past the budget is refused, and
// so is every later call in it: when an envelope says "the last attempt", a failing next call
// within the window really is refused. docs/adapters.md has the details.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { isErrorResult, ToolRouter, toolResultText, type DescribedTool, type Outcome, type UnknownToolOutcome } from "../../runtime/index.ts";

export interface McpToolsOptions {
  /**
   * How long after a failed call a call to the same tool in the same session still counts as
   * its repair (and a refused tool stays refused). Default 5 minutes; at most 15, the guard's
   * own limit on how long it remembers a chain.
   */
  readonly repairWindowMs?: number;
  /** The clock, in milliseconds (tests pass their own). Default `Date.now`. */
  readonly now?: () => number;
}

const DEFAULT_WINDOW_MS = 5 * 60_000;
/** The guard keeps a chain 15 minutes after its last attempt (call/chain-store.ts). */
const MAX_WINDOW_MS = 15 * 60_000;
/** Sessions x tools remembered; the oldest is forgotten first. */
const MAX_CHAINS = 10_000;

/** Where one tool stands in one session. */
interface Standing {
  /** Counts the chains so far; part of the turn, so a new chain is a new turn for the guard. */
  epoch: number;
  /** When the last failed call finished; `undefined` while the chain has not failed. */
  failedAt: number | undefined;
}

/**
 * Serves `tools` on `server` (before it connects): `tools/list` and `tools/call` belong to these
 * tools from then on. Works with the low-level `Server` and with `McpServer`.
 */
export function serveGuardedTools(server: Server | McpServer, tools: readonly DescribedTool[], options: McpToolsOptions = {}): void {
  const windowMs = options.repairWindowMs ?? DEFAULT_WINDOW_MS;
  if (!(windowMs > 0 && windowMs <= MAX_WINDOW_MS))
    throw new RangeError(`toolguard: repairWindowMs must be more than 0 and at most ${MAX_WINDOW_MS} (15 minutes); got ${windowMs}`);
  const now = options.now ?? Date.now;
  const low = "server" in server ? server.server : server;
  const router = new ToolRouter(tools);
  const standings = new Map<string, Standing>();
  // A transport without sessions (stdio, in-memory) serves one client: this server's own id
  // stands for its session, so two such servers sharing a guarded tool keep separate chains.
  const ownSession = `server-${crypto.randomUUID()}`;
  const listed: ListToolsResult = { tools: router.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })) };

  low.registerCapabilities({ tools: {} });
  low.setRequestHandler(ListToolsRequestSchema, () => listed);
  low.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const tool = router.get(name);
    if (!tool) return result(router.unknown(name));
    const session = extra.sessionId ?? ownSession;
    const key = `${session}\0${name}`;
    const standing = standings.get(key) ?? { epoch: 0, failedAt: undefined };
    if (standing.failedAt !== undefined && now() - standing.failedAt > windowMs) {
      standing.epoch++;
      standing.failedAt = undefined;
    }
    standings.delete(key);
    standings.set(key, standing);
    if (standings.size > MAX_CHAINS) standings.delete(standings.keys().next().value as string);
    const turn = `mcp:${session}:${name}:${standing.epoch}`;
    const outcome = await tool.call(request.params.arguments ?? {}, { turn, signal: extra.signal });
    if (outcome.status === "ok") {
      standing.epoch++;
      standing.failedAt = undefined;
    } else {
      standing.failedAt = now();
    }
    return result(outcome);
  });
}

function result(outcome: Outcome<unknown> | UnknownToolOutcome): CallToolResult {
  return { isError: isErrorResult(outcome), content: [{ type: "text", text: toolResultText(outcome) }] };
}
