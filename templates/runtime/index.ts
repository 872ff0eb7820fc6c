// The runtime's public surface, re-exported by every generated package.
export type {
  Candidate,
  CallContext,
  DescribedTool,
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
} from "./contract/api.ts";
export type {
  AmbiguousReferenceOutcome,
  ArgumentError,
  ArgumentsRejectedOutcome,
  Coercion,
  FailedOutcome,
  IdempotencyConflictOutcome,
  FailureClass,
  LedgerUnavailableOutcome,
  OkOutcome,
  Outcome,
  ValidationFailedOutcome,
} from "./contract/outcome.ts";
export type { LedgerAttempt, LedgerEntry, LedgerSink, Verdict } from "./contract/ledger-entry.ts";
export type { Resolution } from "./contract/resolution.ts";
export { latestPerChain } from "./ledger/ledger.ts";
export type { InputSchema, JsonSchema, JsonValue, ToolSpec } from "./contract/tool-spec.ts";
export { defineTool } from "./call/define-tool.ts";
export { defaultLedger } from "./ledger/default-ledger.ts";
export {
  JsonlFileSink,
  readLedger,
  scanLedger,
  DEFAULT_LEDGER_PATH,
  type JsonlFileSinkOptions,
  type LedgerScan,
  type LedgerSinkStats,
} from "./ledger/ledger-jsonl.ts";
export { entryArguments } from "./ledger/read.ts";
export { flushLedgerOnSignals } from "./ledger/exit-hooks.ts";
export { DEFAULT_SECRET_NAMES, type RedactionOptions } from "./ledger/redact.ts";
export { MemorySink } from "./ledger/ledger-memory.ts";
export { ReferenceResolverError } from "./resolve/resolver-lookup.ts";
export { toAnthropicTool, toMcpTool, toOpenAiTool, type ToolDescriptor } from "./providers/providers.ts";
export { createHttpDispatcher, type HttpDispatcherOptions } from "./dispatch/http-dispatch.ts";
export { RedirectRefusedError } from "./dispatch/redirects.ts";
export { UnsafeRequestError } from "./dispatch/unsafe-request.ts";
export {
  ArgumentFailureError,
  dependencySource,
  isArgumentFailure,
  isDependencyFailure,
  unwrap,
  type DependencySource,
} from "./compose/failure-kinds.ts";
export { MemoryChainCounter, GuardedCounter, DEFAULT_COUNTER_TIMEOUT_MS, type ChainCounter, type ChainTally, type SharedTally } from "./call/shared-chains.ts";
export {
  MemoryIdempotencyStore,
  IdempotencyStoreFullError,
  DEFAULT_IDEMPOTENCY_TTL_MS,
  type Claim,
  type IdempotencyStore,
  type MemoryIdempotencyOptions,
  type MemoryIdempotencyStats,
} from "./compose/idempotency-store.ts";
export { openSqliteIdempotencyStore, SqliteIdempotencyStore, type SqliteIdempotencyOptions, type SqliteDatabase } from "./compose/sqlite-idempotency-store.ts";
export { WriteQueueTimeoutError } from "./compose/write-queue.ts";
export type { TraceOptions } from "./telemetry/tracing.ts";
export type { GuardLogger } from "./contract/guard-logger.ts";
export { IDEMPOTENCY_CONFLICT_CODE } from "./telemetry/alarm.ts";
export { chooseStrictness, type StrictChoice } from "./providers/strict-choice.ts";
export { strictVariant, type StrictIssue, type StrictVariant } from "./providers/strict-schema.ts";
export { isErrorResult, ToolRouter, toolResultText, unknownTool, type UnknownToolOutcome } from "./providers/tool-router.ts";
export { allRefused, RefusalWatch, type ToolResultLike } from "./providers/refusal-watch.ts";
export { asEventStream } from "./providers/stream-check.ts";
