// The runtime's public surface, re-exported by every generated package.
export type {
  Candidate,
  CallContext,
  GuardedTool,
  GuardOptions,
  ImplementationContext,
  Implementation,
  ImplementOptions,
  RawArguments,
  RepairCallback,
  RepairReply,
  Resolver,
  ResolverMap,
  ToolDefinition,
  Validated,
} from "./contract/api.ts";
export type {
  AmbiguousReferenceOutcome,
  ArgumentError,
  ArgumentsRejectedOutcome,
  Coercion,
  FailedOutcome,
  FailureClass,
  OkOutcome,
  Outcome,
  ValidationFailedOutcome,
} from "./contract/outcome.ts";
export { latestPerChain, type LedgerAttempt, type LedgerEntry, type LedgerSink, type Verdict } from "./ledger/ledger.ts";
export type { JsonSchema, JsonValue, ToolSpec } from "./contract/tool-spec.ts";
export { defineTool } from "./call/define-tool.ts";
export { JsonlFileSink, readLedger, DEFAULT_LEDGER_PATH, type JsonlFileSinkOptions } from "./ledger/ledger-jsonl.ts";
export { MemorySink } from "./ledger/ledger-memory.ts";
export { ReferenceResolverError, type Resolution } from "./resolve/references.ts";
export { toAnthropicTool, toMcpTool, toOpenAiTool, type ToolDescriptor } from "./providers/providers.ts";
export { createHttpDispatcher, UnsafeRequestError, type HttpDispatcherOptions } from "./dispatch/http-dispatch.ts";
