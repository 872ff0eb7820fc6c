// The runtime's public surface, re-exported by every generated package.
export type {
  Candidate,
  CallContext,
  GuardedTool,
  GuardOptions,
  IdempotencyOptions,
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
  IdempotencyConflictOutcome,
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
export {
  ArgumentFailureError,
  dependencySource,
  isArgumentFailure,
  isDependencyFailure,
  unwrap,
  type DependencySource,
} from "./compose/failure-kinds.ts";
export { MemoryIdempotencyStore, DEFAULT_IDEMPOTENCY_TTL_MS, type Claim, type IdempotencyStore } from "./compose/idempotency-store.ts";
export { openSqliteIdempotencyStore, SqliteIdempotencyStore, type SqliteIdempotencyOptions, type SqliteDatabase } from "./compose/sqlite-idempotency-store.ts";
export type { TraceOptions } from "./telemetry/tracing.ts";
