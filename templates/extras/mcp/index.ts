// MCP adapter (`@modelcontextprotocol/sdk`, server side): serves guarded tools on a `Server` or
// `McpServer`. `tools/list` advertises each tool's generated schema unchanged; `tools/call` goes
// through the guard, and every outcome that is not ok is an error result.
//
// MCP has no conversation turn, and hosts send no turn id, so the repair bound is built from what
// a server knows: who is calling (caller.ts), the tool, and time. Calls to one tool from one
// caller form one repair chain until a call succeeds (the next call starts a new chain) or until
// `repairWindowMs` passes after the chain's last counted failure. Past the budget, a failing call
// is refused for the rest of the window (refused calls do not extend it); a call with correct
// arguments is run at once and starts a new chain, so a refusal never locks out a model that
// got the missing fact from its user. With `chains` (a shared store), the chain's failures are
// counted where every replica sees them. docs/adapters.md and docs/replicas.md have the details.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { GuardedCounter } from "../../runtime/call/shared-chains.ts";
import { markChainStoreOutage } from "../../runtime/ledger/store-mark.ts";
import {
  defaultLedger,
  isErrorResult,
  ToolRouter,
  toolResultText,
  type ArgumentsRejectedOutcome,
  type ChainCounter,
  type DescribedTool,
  type LedgerSink,
  type Outcome,
  type UnknownToolOutcome,
  type ValidationFailedOutcome,
} from "../../runtime/index.ts";
import { callerOf, type McpCall, type McpIdentity } from "./caller.ts";
import { standingOf, turnOf, type Standing } from "./standings.ts";
import { mcpWording, stricter } from "./wording.ts";

export type { McpCall, McpIdentity };

export interface McpToolsOptions {
  /**
   * How long after a chain's last counted failure a failing call to the same tool from the same
   * caller still counts as its repair (and, once the chain is refused, is refused). Default 5
   * minutes; at most 15, the guard's own limit on how long it remembers a chain.
   */
  readonly repairWindowMs?: number;
  /**
   * Names the conversation a call belongs to, from what the server knows of its request: an
   * authenticated subject (`(call) => call.authInfo?.extra?.sub as string`), a header the
   * gateway sets (`(call) => call.requestInfo?.headers["x-conversation-id"] as string`). Two
   * calls with the same identity share a repair chain per tool; a call it returns `undefined`
   * for is answered `caller_unknown` and not run. Default: the transport's session id; for a
   * transport without sessions (stdio, in-memory), the server, which serves one client.
   * Required for stateless streamable HTTP, whose requests carry neither.
   */
  readonly identity?: McpIdentity;
  /**
   * Where chains' failures are counted so that several server processes share them (the
   * `postgres` extra's `openPostgresStores(...).chains`). Default: only this process's guard
   * counts. When it is given and does not answer, each process keeps its own bound, with a
   * warning and the `toolguard.chain_store_unavailable` counter (docs/replicas.md).
   */
  readonly chains?: ChainCounter;
  /** How long `chains` may take to count a failure before the process's own bound is used. Default 2,000 ms. */
  readonly chainsTimeoutMs?: number;
  /**
   * Where a `chains` outage is marked: one entry per call bounded by this process alone (verdict
   * `chain_store_unavailable`, docs/ledger.md "Marks"). Pass the tools' own sink (for example
   * `stores.ledger`). Default: the process's default ledger (`.toolguard/ledger.jsonl`), the
   * one tools write to when `implement` is given no `ledger`.
   */
  readonly ledger?: LedgerSink;
  /** The clock, in milliseconds (tests pass their own). Default `Date.now`. */
  readonly now?: () => number;
}

const DEFAULT_WINDOW_MS = 5 * 60_000;
/** The guard keeps a chain 15 minutes after its last attempt (call/chain-store.ts). */
const MAX_WINDOW_MS = 15 * 60_000;

/** A call the server cannot tie to a conversation: answered, never run (its repairs could not be bounded). */
export interface CallerUnknownOutcome {
  readonly status: "caller_unknown";
  readonly tool: string;
  readonly detail: string;
}

/**
 * Serves `tools` on `server` (before it connects): `tools/list` and `tools/call` belong to these
 * tools from then on. Works with the low-level `Server` and with `McpServer`.
 */
export function serveGuardedTools(server: Server | McpServer, tools: readonly DescribedTool[], options: McpToolsOptions = {}): void {
  const windowMs = options.repairWindowMs ?? DEFAULT_WINDOW_MS;
  if (!(windowMs > 0 && windowMs <= MAX_WINDOW_MS))
    throw new RangeError(`toolguard: repairWindowMs must be more than 0 and at most ${MAX_WINDOW_MS} (15 minutes); got ${windowMs}`);
  if (options.identity !== undefined && typeof options.identity !== "function")
    throw new TypeError(`toolguard: identity must be a function of the request that names its conversation; got ${typeof options.identity}`);
  const now = options.now ?? Date.now;
  const chains = options.chains === undefined ? undefined : new GuardedCounter(options.chains, options.chainsTimeoutMs);
  const low = "server" in server ? server.server : server;
  const router = new ToolRouter(tools);
  // A transport without sessions (stdio, in-memory) serves one client: this server's own id
  // stands for it, so two such servers sharing a guarded tool keep separate chains.
  const ownSession = `server:${crypto.randomUUID()}`;
  let warned = false;
  const listed: ListToolsResult = { tools: router.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })) };

  low.registerCapabilities({ tools: {} });
  low.setRequestHandler(ListToolsRequestSchema, () => listed);
  low.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const tool = router.get(name);
    if (!tool) return result(router.unknown(name));
    const caller = callerOf(extra as McpCall, options.identity, ownSession);
    if (!caller.known) {
      if (!warned) {
        warned = true;
        console.warn(`toolguard: a call to ${name} was not run: ${caller.why}. Pass serveGuardedTools an identity function (docs/adapters.md).`);
      }
      return result(callerUnknown(name));
    }
    // Unambiguous whatever the identity holds, and storable in any database.
    const key = JSON.stringify([caller.id, name]);
    const standing = standingOf(key, now(), windowMs);
    const args = request.params.arguments ?? {};
    // MCP gives a tool call no id of its own: the JSON-RPC id of the `tools/call` request names
    // it instead (unique per client session while the request is in flight), as a string.
    const toolCallId = String(extra.requestId);
    let outcome = await tool.call(args, { turn: turnOf(caller.id, name, standing), signal: extra.signal, toolCallId });
    if (standing.refused && passedButRefused(outcome)) {
      // Correct arguments after a refusal: the model has what it lacked, so a new chain runs them.
      standing.epoch++;
      standing.refused = false;
      standing.failedAt = undefined;
      outcome = await tool.call(args, { turn: turnOf(caller.id, name, standing), signal: extra.signal, toolCallId });
    }
    if (outcome.status === "ok") {
      standing.epoch++;
      standing.failedAt = undefined;
      standing.refused = false;
      // Awaited: the caller's next call, on whichever replica, must find the chain closed.
      if (chains) {
        const down = await chains.close(key);
        if (down !== undefined) markChainStoreOutage(options.ledger ?? defaultLedger(), name, caller.id, down);
      }
    } else if (outcome.status === "validation_failed" || outcome.status === "arguments_rejected") {
      if (chains) {
        const local = outcome;
        const shared = await chains.fail(key, budgetOf(local), windowMs);
        if (!shared.ok) markChainStoreOutage(options.ledger ?? defaultLedger(), name, caller.id, shared.reason);
        if (shared.ok && shared.tally.failures < local.attempts) {
          // This process's chain is stale: a success or the window on another replica ended it.
          // The failure (counted once, above) is judged again as the first of a new chain here.
          standing.epoch++;
          standing.refused = false;
          standing.failedAt = undefined;
          const again = await tool.call(args, { turn: turnOf(caller.id, name, standing), signal: extra.signal, toolCallId });
          outcome = again.status === "validation_failed" || again.status === "arguments_rejected" ? again : local;
        }
        if (shared.ok && (outcome.status === "validation_failed" || outcome.status === "arguments_rejected"))
          outcome = stricter(outcome, shared.tally.failures, shared.tally.budget, windowMs);
      }
      counting(standing, outcome.status === "arguments_rejected", now());
    } else {
      standing.failedAt = now();
    }
    return result(mcpWording(outcome, windowMs));
  });
}

/** The budget a chain's first failure sets: what the guard's envelope says this chain allows. */
function budgetOf(local: ValidationFailedOutcome | ArgumentsRejectedOutcome): number {
  return local.status === "validation_failed" ? local.attempts + local.repairsLeft : 2;
}

/** A counted failure extends the window; a refused call does not, so a refusal ends on time. */
function counting(standing: Standing, refusedNow: boolean, at: number): void {
  if (!standing.refused) standing.failedAt = at;
  if (refusedNow) standing.refused = true;
}

/** The guard refused a call only because its turn was refused: the arguments themselves passed. */
function passedButRefused(outcome: Outcome<unknown>): boolean {
  return outcome.status === "arguments_rejected" && outcome.errors.length === 1 && outcome.errors[0]?.rule === "repair_budget";
}

function callerUnknown(tool: string): CallerUnknownOutcome {
  return {
    status: "caller_unknown",
    tool,
    detail:
      `This server cannot tell which conversation this call to ${tool} belongs to, so it did not run it. ` +
      "Retrying will not help: tell the user the tool is unavailable because of how the server is set up.",
  };
}

function result(outcome: Outcome<unknown> | UnknownToolOutcome | CallerUnknownOutcome): CallToolResult {
  if (outcome.status === "caller_unknown") return { isError: true, content: [{ type: "text", text: JSON.stringify(outcome) }] };
  return { isError: isErrorResult(outcome), content: [{ type: "text", text: toolResultText(outcome) }] };
}
