// Who is calling: the conversation an MCP call belongs to, which keys its repair chain. MCP sends
// no conversation id, so the deployment says where it comes from (`identity`); without that, the
// transport's session id; without a session, a transport that serves one client (stdio,
// in-memory) is one conversation. Stateless HTTP has neither: every request is a new server and
// a new transport, so a chain keyed on either would make every call attempt 1. Such a call is
// answered, not run, until the deployment names an identity.
import { createHash } from "node:crypto";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** What the server knows of a call's request: its session, its authentication, its HTTP headers. */
export type McpCall = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, "sessionId" | "authInfo" | "requestInfo">;

/** Names the conversation a call belongs to (a subject, a header the gateway sets); `undefined`: unknown. */
export type McpIdentity = (call: McpCall) => string | undefined;

/** Longest identity kept as it is in chain keys and ledger turns; a longer one is hashed. */
const MAX_IDENTITY_LENGTH = 200;

export type Caller = { readonly known: true; readonly id: string } | { readonly known: false; readonly why: string };

/** The conversation `call` belongs to; `ownSession` stands for a transport that serves one client. */
export function callerOf(call: McpCall, identity: McpIdentity | undefined, ownSession: string): Caller {
  if (identity !== undefined) {
    let named: unknown;
    try {
      named = identity(call);
    } catch (error) {
      return { known: false, why: `the identity function threw: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (typeof named === "string" && named !== "") return { known: true, id: `id:${bounded(named)}` };
    return { known: false, why: `the identity function returned ${named === "" ? "an empty string" : String(named)} for this request, not a conversation id` };
  }
  if (call.sessionId !== undefined) return { known: true, id: `session:${bounded(call.sessionId)}` };
  // A request that came over HTTP without a session id is stateless HTTP: nothing ties it to
  // the client's earlier calls.
  if (call.requestInfo !== undefined)
    return { known: false, why: "the request came over stateless HTTP (no session id) and serveGuardedTools was given no identity function" };
  return { known: true, id: ownSession };
}

function bounded(id: string): string {
  return id.length <= MAX_IDENTITY_LENGTH ? id : `sha256-${createHash("sha256").update(id).digest("base64url")}`;
}
