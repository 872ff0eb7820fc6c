// The public surface of a generated tool: what tool teams bind and what agent runtimes call.
// `Validated<T>` can only be minted inside the guard, so an implementation can only be reached
// through `call`.
import type { AmbiguousReferenceOutcome, Coercion, FailedOutcome, Outcome, ValidationFailedOutcome } from "./outcome.ts";
import type { HttpBinding, InputSchema } from "./tool-spec.ts";
import type { IdempotencyStore } from "./idempotency-store.ts";
import type { LedgerSink } from "./ledger-entry.ts";
import type { ChainCounter } from "./chain-counter.ts";
import type { Candidate } from "./resolution.ts";
import type { GuardLogger } from "./guard-logger.ts";
import type { TraceOptions } from "./trace-options.ts";
import type { RedactionOptions } from "./redaction.ts";

declare const validatedBrand: unique symbol;

/**
 * Arguments that passed the tool's guard. The brand is a type-level fiction that only the
 * runtime asserts, so a plain object literal does not type-check where `Validated<T>` is
 * expected: the implementation cannot be called around the guard.
 */
export type Validated<T> = T & { readonly [validatedBrand]: true };

/**
 * Turns what the model wrote for a reference (a name, an email) into the real things it may
 * mean. Return every match: none is a semantic error, one proceeds, several are a question
 * back to the model. Throwing, or rejecting, is a dependency failure, not an argument error.
 */
export type Resolver = (
  text: string,
  context: { readonly tool: string; readonly path: string; readonly signal?: AbortSignal },
) => Promise<readonly Candidate[]> | readonly Candidate[];

/** What the implementation receives besides its arguments. */
export interface ImplementationContext {
  readonly tool: string;
  /** The conversation turn the call belongs to, as the caller named it. */
  readonly turn: string;
  /** Derived from the validated arguments; the same intent always gives the same key. */
  readonly idempotencyKey: string;
  readonly signal?: AbortSignal;
}

export type Implementation<Args, Result> = (args: Validated<Args>, context: ImplementationContext) => Promise<Result> | Result;

/** The model's arguments exactly as the provider delivered them: its string, or a parsed value. */
export type RawArguments = string | unknown;

/** What a repair callback returns: the model's next arguments for the same tool. */
export type RepairReply = RawArguments | { readonly arguments: RawArguments; readonly finishReason?: string };

/**
 * Asks the model to fix its arguments, given the failure envelope as the tool result. Used when
 * the guard drives the repair loop itself; the guard calls it at most as often as the budget
 * allows.
 */
export type RepairCallback = (failure: ValidationFailedOutcome) => Promise<RepairReply> | RepairReply;

export interface CallContext {
  /**
   * Identifies the conversation turn. Attempts at the same tool within one turn form one repair
   * chain, so an agent framework that feeds each new tool call in is bounded exactly like a loop
   * the guard drives. Use a value unique per turn (`${conversationId}:${turnIndex}`).
   */
  readonly turn: string;
  /**
   * The provider's finish reason for this tool call (`length`, `max_tokens`): marks output cut
   * off by a token ceiling as truncated even where the text happens to parse.
   */
  readonly finishReason?: string;
  /** When given, the guard asks the model for repairs itself, within the budget. */
  readonly repair?: RepairCallback;
  /**
   * JSON Pointer patterns (`*` for any array index) where a `null` stands for an omitted
   * optional field: set by the OpenAI strict adapters, whose schema makes every optional field
   * required and nullable. Those nulls are dropped before validation (and recorded as `absent`
   * in the ledger), so the guard validates the call the model meant against the tool's own
   * schema. A null anywhere else is validated as sent.
   */
  readonly absentNulls?: readonly string[];
  readonly signal?: AbortSignal;
  /** The provider's id of this tool call, recorded on the call's span (`gen_ai.tool.call.id`). */
  readonly toolCallId?: string;
}

/** Idempotency with a memory: see `GuardOptions.idempotency`. */
export interface IdempotencyOptions<Resolved = unknown> {
  /** Where key -> fingerprint -> result is kept (`MemoryIdempotencyStore`, `openSqliteIdempotencyStore`). */
  readonly store: IdempotencyStore;
  /**
   * Names the intent a call carries out, from its validated, resolved arguments (for example
   * `(args) => \`${args.customer_id}:${args.period}\``). Default: the hash of all the arguments,
   * so only an identical call is answered from the store. With an intent key, the same intent
   * with different arguments is an `idempotency_conflict`.
   */
  readonly keyOf?: (args: Resolved) => string;
}

/**
 * Options of `implement`; each has a default, so `implement(impl)` alone works. `Args` is what
 * the model sends, `Resolved` what the implementation receives.
 */
export interface GuardOptions<Args = unknown, Resolved = Args> {
  /**
   * Where chain records go. Default: an append-only JSON Lines file at
   * `.toolguard/ledger.jsonl` under the working directory.
   */
  readonly ledger?: LedgerSink;
  /**
   * Secret fields replaced in the ledger's `raw`, `arguments`, errors and coercions: by default
   * the schema's `writeOnly` properties and names like `password`, `apiKey`, `token`
   * (docs/ledger.md). `false` writes everything in clear.
   */
  readonly redact?: RedactionOptions;
  /** Longest raw text or `arguments` written whole to the ledger; longer ones are cut, with length and hash. Default 16,384. */
  readonly maxLedgerTextChars?: number;
  /**
   * The outcome waits until its ledger entry is on disk (and rejects if it cannot be written).
   * Default false: the entry is written in the background (docs/ledger.md, durability).
   */
  readonly durable?: boolean;
  /**
   * When the ledger cannot be written, do not call the implementation: the outcome is
   * `ledger_unavailable`. Default false: the call runs and the failure is reported.
   */
  readonly failClosed?: boolean;
  /** Largest raw argument string accepted, in bytes (UTF-16 units). Default 1 MiB. */
  readonly maxBytes?: number;
  /** Deepest nesting of arrays and objects accepted. Default 64. */
  readonly maxDepth?: number;
  /** Most errors listed in one envelope; the rest are counted. Default 20. */
  readonly maxErrors?: number;
  /**
   * How long a resolver may take, in milliseconds, before it counts as failed (a dependency
   * failure, thrown as `ReferenceResolverError`). Default 10,000.
   */
  readonly resolverTimeoutMs?: number;
  /**
   * Answers a repeated call from a store instead of running the implementation again, and
   * refuses the same key with other arguments. Default: none (every valid call runs).
   */
  readonly idempotency?: IdempotencyOptions<Resolved>;
  /**
   * Counts this tool's repair chains in a store several processes share (`openPostgresStores(url).chains`
   * from the `postgres` extra, or any `ChainCounter`), keyed on `context.turn` and the tool, so
   * that replicas behind a load balancer keep one bound per turn. The envelope is judged locally
   * first; the shared count can only make it stricter. A store that fails or takes over 2 s
   * leaves this process's own bound, a warning, `toolguard.chain_store_unavailable` and a
   * ledger mark (verdict `chain_store_unavailable`). A `context.repair` loop runs within one
   * `call()` and is counted as one. Default: none (the process's own chains; sticky routing keeps
   * them exact, docs/replicas.md). The MCP adapter takes its own `chains` option.
   */
  readonly chains?: ChainCounter;
  /**
   * Write ordering: calls whose validated, resolved arguments (what the implementation
   * receives, e.g. `args.customer_id`) give the same key run one at a time, in the order they
   * passed validation. Keys are independent: a call waits only for the writes of its own key.
   * `undefined` means the call needs no ordering. Default: no ordering.
   */
  readonly serializeBy?: (args: Resolved) => string | undefined;
  /**
   * With `serializeBy`: the longest a call waits for the writes before it under its key, and
   * the longest one write holds its key, in milliseconds. A call that waits longer is not run:
   * `call` throws `WriteQueueTimeoutError` (a dependency failure). A write still running past it
   * no longer holds the key back (a `ToolguardWarning` says so). Default 30,000.
   */
  readonly serializeTimeoutMs?: number;
  /** What a call's span may record beyond names and outcomes. Default: no arguments. */
  readonly trace?: TraceOptions;
  /**
   * Where warnings for operators go: the idempotency alarm (a key that already ran with other
   * arguments), with the tool, the key and both fingerprints as fields. Default: a Node process
   * warning (`ToolguardWarning`, code `TOOLGUARD_IDEMPOTENCY_CONFLICT`), printed on stderr and
   * seen by `process.on("warning")`.
   */
  readonly logger?: GuardLogger;
  /** Record `guardMs` for every attempt in the ledger. Default off: no clock reads on a call's path. */
  readonly timing?: boolean;
}

/** A tool bound to its implementation; `call` is the only way to reach it. */
export interface GuardedTool<Result, Args = unknown> {
  readonly name: string;
  /**
   * Guards one tool call: parse, coerce, validate, resolve, then run the implementation.
   * Never throws for anything the model sent; throws only what the implementation or a
   * resolver throws (a dependency failure, for the caller's resilience layer).
   */
  call(raw: RawArguments, context: CallContext): Promise<Outcome<Result>>;
  /**
   * The guard without the implementation, synchronously: the validated arguments (references
   * resolved) or the outcome to send back to the model. Counts against the turn's repair budget
   * exactly like `call`, and records the chain in the ledger (verdict `ok` when the arguments
   * pass: handing them over is the end of the guard's part). Needs synchronous resolvers: a
   * resolver that returns a promise makes `check` throw a TypeError (use `call`). A tool
   * loaded on first use must be loaded first: `await tool.ready()`.
   */
  check(raw: RawArguments, context: CallContext): CheckResult<Args>;
  /** Resolves once the tool's validator and tables are loaded (at once for a loaded tool). */
  ready(): Promise<void>;
}

/** What `check` returns: the arguments to act on, or what to tell the model. */
export type CheckResult<Args = unknown> =
  | {
      readonly ok: true;
      readonly args: Validated<Args>;
      readonly coercions: readonly Coercion[];
      /** Attempts in the chain, this one included. */
      readonly attempts: number;
      /** Derived from the validated arguments on first read. */
      readonly idempotencyKey: string;
    }
  | { readonly ok: false; readonly outcome: FailedOutcome | AmbiguousReferenceOutcome };

/**
 * What `implement` returns: the guarded tool together with what the model sees of it (name,
 * description, input schema), which is everything an SDK adapter needs to list the tool and
 * to route the model's calls to it.
 */
export interface DescribedTool<Result = unknown, Args = unknown> extends GuardedTool<Result, Args> {
  readonly description: string;
  readonly inputSchema: InputSchema;
}

/** Resolvers a tool needs, one per reference kind its schema declares. */
export type ResolverMap<Kinds extends string> = { readonly [K in Kinds]: Resolver };

export type ImplementOptions<Kinds extends string, Args = unknown, Resolved = Args> = [Kinds] extends [never]
  ? GuardOptions<Args, Resolved> & { readonly resolvers?: undefined }
  : GuardOptions<Args, Resolved> & { readonly resolvers: ResolverMap<Kinds> };

/**
 * A generated tool: its provider-neutral definition plus `implement`.
 * `Args` is what the model sends; `Resolved` is what the implementation receives once
 * references are resolved; `Kinds` are the reference kinds that need resolvers.
 */
export interface ToolDefinition<Args, Resolved = Args, Kinds extends string = never> {
  readonly name: string;
  readonly description: string;
  /** The input schema the model sees. */
  readonly inputSchema: InputSchema;
  /** How the operation maps onto HTTP, for tools read from OpenAPI (see `createHttpDispatcher`). */
  readonly http: HttpBinding | undefined;
  implement<Result>(
    implementation: Implementation<Resolved, Result>,
    ...options: [Kinds] extends [never] ? [options?: ImplementOptions<Kinds, Args, Resolved>] : [options: ImplementOptions<Kinds, Args, Resolved>]
  ): DescribedTool<Result, Resolved>;
}

export type { Candidate, FailedOutcome };
