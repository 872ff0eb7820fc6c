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
} from "./api.ts";
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
} from "./outcome.ts";
export { latestPerChain, type LedgerAttempt, type LedgerEntry, type LedgerSink, type Verdict } from "./ledger.ts";
export type { JsonSchema, JsonValue, ToolSpec } from "./tool-spec.ts";
export { defineTool } from "./define-tool.ts";
export { JsonlFileSink, readLedger, DEFAULT_LEDGER_PATH, type JsonlFileSinkOptions } from "./ledger-jsonl.ts";
export { MemorySink } from "./ledger-memory.ts";
export { ReferenceResolverError, type Resolution } from "./references.ts";
export { toAnthropicTool, toMcpTool, toOpenAiTool, type ToolDescriptor } from "./providers.ts";
export { createHttpDispatcher, type HttpDispatcherOptions } from "./http-dispatch.ts";
