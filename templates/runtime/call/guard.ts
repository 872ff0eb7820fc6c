// The guarded call: parse -> coerce -> validate -> resolve references -> mint idempotency key
// -> dispatch, with every failed attempt answered by an envelope and bounded by a repair chain.
//
// How attempts form a chain: every call at one tool with the same `context.turn` belongs to one
// chain until it ends. That serves both ways of using the guard:
//   (a) an agent framework feeds each tool call in as the model produces it, passing the same
//       `turn`; the guard counts the attempts itself, so the caller cannot loop past the bound;
//   (b) the caller passes `context.repair`; the guard hands each failure envelope to it and
//       calls it at most as often as the budget allows, all within one `call`.
// A chain ends with ok (closed: a later call in the turn starts fresh) or rejected (remembered:
// a later call in the turn is refused at once). The budget is one repair (two attempts), or
// two repairs when the chain's first failure was truncation. A reference question
// (`ambiguous_reference`) is not a failure and spends no budget; it is bounded instead by the
// rule that, once asked, the field accepts only an identifier that was offered.
import type { CallContext, Candidate, GuardedTool, GuardOptions, Implementation, ImplementationContext, RepairReply, ResolverMap, Validated } from "../contract/api.ts";
import type { AmbiguousReferenceOutcome, ArgumentError, Coercion, FailureClass, OkOutcome, Outcome } from "../contract/outcome.ts";
import { markDependencyFailure } from "../compose/failure-kinds.ts";
import { IdempotencyGate } from "../compose/idempotency-gate.ts";
import { WriteQueue, type QueueTicket } from "../compose/write-queue.ts";
import type { LedgerAttempt, LedgerSink, Verdict } from "../ledger/ledger.ts";
import type { StandaloneValidator, ToolSpec } from "../contract/tool-spec.ts";
import { applyCoercions, coerceString, planCoercions, type StringReader } from "../coerce/coerce.ts";
import { dropAbsentNulls, removeAbsent } from "../coerce/absent-nulls.ts";
import { ChainStore, DEFAULT_CHAIN_LIMITS, type Chain } from "./chain-store.ts";
import { argumentsRejected, idempotencyConflict, validationFailed } from "../explain/envelope.ts";
import { explainSchemaErrors, finish } from "../explain/explain.ts";
import { defaultLedger } from "../ledger/ledger-jsonl.ts";
import { DEFAULT_LIMITS, parseArguments } from "../parse/parse.ts";
import { ambiguityDetail, applyResolutions, compileReferences, DEFAULT_RESOLVER_TIMEOUT_MS, resolveReferences, type ReferenceStep, type Resolution } from "../resolve/references.ts";
import { appendEntry, ChainRecord, type ChainIdentity } from "../ledger/chain-record.ts";
import { RecordPolicy } from "../ledger/record-policy.ts";
import { Snapshot } from "./snapshot.ts";
import { ledgerGate, ledgerUnavailable, settleWithLedger } from "../ledger/settle.ts";
import { countCall, countFailure, countIdempotencyConflict, countRepairExhausted, countRepairSucceeded, toolAttributes } from "../telemetry/telemetry.ts";

/**
 * The guard's replaceable parts. Production always uses `STRICT_PARTS`; the seam exists so the
 * mutation tests can plant a defect (skip validation, unbound the budget, loosen coercion) and
 * show that the test suite catches it. Not exported from the package.
 */
export interface GuardParts {
  readonly validate: (validator: StandaloneValidator, value: unknown) => boolean;
  readonly readString: StringReader;
  /** Attempts a chain allows, given whether its first failure was truncation. */
  readonly maxAttempts: (firstFailureTruncated: boolean) => number;
}

export const STRICT_PARTS: GuardParts = {
  validate: (validator, value) => validator(value),
  readString: coerceString,
  maxAttempts: (truncated) => (truncated ? 3 : 2),
};

const DEFAULT_MAX_ERRORS = 20;
/** Fixed for the process; read once, because the `performance.timeOrigin` getter is not free. */
const TIME_ORIGIN = performance.timeOrigin;
const NO_COERCIONS: readonly Coercion[] = Object.freeze([]);
const NO_RESOLUTIONS: readonly Resolution[] = Object.freeze([]);
const NO_ERRORS: readonly ArgumentError[] = Object.freeze([]);
const NO_PATHS: readonly string[] = Object.freeze([]);

type AttemptResult =
  | { readonly ok: true; readonly value: unknown; readonly record: LedgerAttempt; readonly started: number }
  | {
      readonly ok: false;
      readonly failure: FailureClass;
      readonly errors: readonly ArgumentError[];
      readonly truncated: boolean;
      readonly record: LedgerAttempt;
      readonly started: number;
    };

export function createGuard<Args, Result>(
  spec: ToolSpec,
  implementation: Implementation<Args, Result>,
  options: GuardOptions<never, Args> & { readonly resolvers?: ResolverMap<string> } = {},
  parts: GuardParts = STRICT_PARTS,
): GuardedTool<Result> {
  const tool = spec.name;
  const attributes = toolAttributes(tool);
  const references = compileReferences(spec.references);
  const hasReferences = references.length > 0;
  const resolvers = options.resolvers ?? {};
  // The types already demand these; JavaScript callers learn it here, at bind time, not mid-call.
  for (const field of references) {
    if (typeof resolvers[field.kind] !== "function") {
      throw new TypeError(`toolguard: ${tool} needs a resolver for reference kind "${field.kind}": implement(impl, { resolvers: { ${field.kind}: (text) => [...] } })`);
    }
  }
  const resolverTimeoutMs = options.resolverTimeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS;
  const limits = { maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxBytes, maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth };
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const plan = planCoercions(spec.coercions);
  // Composition with the layers around the tool; each is absent unless asked for, so the
  // valid path pays one check apiece.
  const gate = options.idempotency ? new IdempotencyGate(options.idempotency.store) : undefined;
  const keyOf = options.idempotency?.keyOf;
  const serializeBy = options.serializeBy as ((args: unknown) => string | undefined) | undefined;
  const queue = serializeBy ? new WriteQueue() : undefined;
  let sink: LedgerSink | undefined = options.ledger;
  const ledger = (): LedgerSink => (sink ??= defaultLedger());
  const recordPolicy = new RecordPolicy(spec, options);
  const durable = options.durable === true;
  const failClosed = options.failClosed === true;
  const chains = new ChainStore({
    ...DEFAULT_CHAIN_LIMITS,
    onDrop: (chain) => {
      if (!chain.rejected) record(chain, chain.turn, chain.startedAt, chain.attempts, chain.attempts.at(-1)?.question ? "ambiguous" : "abandoned");
    },
  });

  /** Appends a chain's current state; `chain` undefined for a chain that never waited (its id is minted when read). */
  function record(chain: ChainIdentity | undefined, turn: string, startedAt: number, attempts: readonly LedgerAttempt[], verdict: Verdict, snapshot?: Snapshot): void {
    appendEntry(ledger(), new ChainRecord(chain, tool, turn, startedAt, verdict, attempts, snapshot, recordPolicy));
  }

  /** Steps 1-3, synchronously: nothing is awaited before a failure envelope exists. */
  function attempt(raw: unknown, finishReason: string | undefined, absentNulls: readonly string[] | undefined): AttemptResult {
    const started = performance.now();
    const parsed = parseArguments(raw, finishReason, limits);
    if (!parsed.ok) {
      const errors = finish(parsed.errors, maxErrors);
      return failed("syntactic", errors, parsed.truncated, parsed.text, NO_COERCIONS, finishReason, started);
    }
    const value = parsed.value;
    const absent = absentNulls ? dropAbsentNulls(value, absentNulls) : NO_PATHS;
    let coercions = NO_COERCIONS;
    if (!parts.validate(spec.validate, value)) {
      // The coercion table lists only places where the schema rejects strings, so a document
      // that validates has nothing there to coerce: coercing only after a failed validation,
      // then validating again, gives exactly parse -> coerce -> validate, and keeps the walk
      // off the valid path. `value` is the guard's own copy, fresh from JSON.parse.
      if (plan.length > 0) coercions = applyCoercions(value, plan, parts.readString);
      if (coercions.length === 0 || !parts.validate(spec.validate, value)) {
        const errors = explainSchemaErrors(spec.validate.errors ?? [], value, spec.hints, maxErrors);
        return failed("structural", errors, false, parsed.text, coercions, finishReason, started);
      }
    }
    const guardMs = performance.now() - started;
    const record: LedgerAttempt =
      absent.length === 0 ? { raw: parsed.text, finishReason, errors: NO_ERRORS, coercions, guardMs } : { raw: parsed.text, finishReason, errors: NO_ERRORS, coercions, guardMs, absent };
    return { ok: true, value, record, started };
  }

  function guardedAttempt(raw: unknown, finishReason: string | undefined, absentNulls?: readonly string[]): AttemptResult {
    try {
      return attempt(raw, finishReason, absentNulls);
    } catch (error) {
      // A defect in the guard itself; the model still gets an answer, and the defect is loud.
      process.emitWarning(`toolguard: could not check the arguments of ${tool}: ${String(error)}`, { type: "ToolguardWarning" });
      const errors = [{ path: "", rule: "unreadable", message: "the arguments could not be read; send one JSON object that matches the schema" }];
      return failed("syntactic", errors, false, typeof raw === "string" ? raw : "", NO_COERCIONS, finishReason, performance.now());
    }
  }

  /** One attempt in the chain of `context.turn`: never awaits before a failure envelope. */
  function step(raw: unknown, context: CallContext): Promise<Outcome<Result>> {
    countCall(attributes);
    const turn = context.turn;
    const chain = chains.get(turn);
    if (chain?.rejected) {
      const result = guardedAttempt(raw, context.finishReason, context.absentNulls);
      const refusal: ArgumentError = { path: "", rule: "repair_budget", message: "the repair budget for this turn is spent; no further attempt is checked" };
      record(undefined, turn, TIME_ORIGIN + performance.now(), [{ ...result.record, errors: [refusal, ...(result.ok ? [] : result.errors)] }], "rejected");
      return Promise.resolve(argumentsRejected(tool, chain.lastFailure ?? "structural", chain.lastErrors, chain.attempts.length + 1, true));
    }
    const result = guardedAttempt(raw, context.finishReason, context.absentNulls);
    const startedAt = chain?.startedAt ?? TIME_ORIGIN + result.started;
    if (result.ok) {
      if (!queue) return dispatch(result.value, result.record, chain, startedAt, context);
      // The place in the write queue is taken now, as the arguments pass validation: a repaired
      // write is ordered by its validated intent, not by its first emission.
      let ticket: QueueTicket | undefined;
      try {
        const key = serializeBy?.(result.value);
        ticket = key === undefined ? undefined : queue.enter(key);
      } catch (error) {
        record(chain, turn, startedAt, [...(chain?.attempts ?? []), result.record], "error");
        return Promise.reject(markDependencyFailure(error, "implementation"));
      }
      if (!ticket) return dispatch(result.value, result.record, chain, startedAt, context);
      const held = ticket;
      return held.ready.then(() => dispatch(result.value, result.record, chain, startedAt, context)).finally(() => held.leave());
    }

    return Promise.resolve(failAttempt(chain, turn, startedAt, result.failure, result.errors, result.truncated, result.record));
  }

  /** Counts a failed attempt against its chain: a correction while the budget lasts, then a refusal. */
  function failAttempt(
    chain: Chain | undefined,
    turn: string,
    startedAt: number,
    failure: FailureClass,
    errors: readonly ArgumentError[],
    truncated: boolean,
    attemptRecord: LedgerAttempt,
  ): Outcome<Result> {
    countFailure(tool, failure, errors);
    const open = chain ?? new OpenChain(turn, startedAt, attemptRecord);
    // The budget is fixed by the chain's first failure (a question before it spends nothing).
    if (open.maxAttempts === 0) open.maxAttempts = parts.maxAttempts(truncated);
    if (chain) open.attempts.push(attemptRecord);
    open.lastFailure = failure;
    open.lastErrors = errors;
    const made = open.attempts.length;
    const failed = failedAttempts(open.attempts);
    if (failed >= open.maxAttempts) {
      open.rejected = true;
      chains.put(open, Date.now());
      record(open, turn, startedAt, open.attempts, "rejected");
      countRepairExhausted(attributes);
      return argumentsRejected(tool, failure, errors, made, false);
    }
    chains.put(open, Date.now());
    // Written now, not only when the chain ends: a crash before the model's next attempt must
    // not lose this one. The chain's final entry supersedes it. A copy of the attempts, because
    // sinks serialise later and the chain keeps growing.
    record(open, turn, startedAt, open.attempts.slice(), "open");
    return validationFailed(tool, failure, errors, made, open.maxAttempts - failed, truncated);
  }

  /** Steps 4-6. Only a valid attempt gets here. */
  function dispatch(value: unknown, attemptRecord: LedgerAttempt, chain: Chain | undefined, startedAt: number, context: CallContext): Promise<Outcome<Result>> {
    if (!hasReferences) return run(value, attemptRecord, chain, startedAt, context);
    const offers = chain?.offers ?? NO_OFFERS;
    const resolverFailed = (error: unknown): never => {
      // A resolver's failure is the dependency's, not the model's: recorded, then thrown.
      const attempts = chain ? [...chain.attempts, attemptRecord] : [attemptRecord];
      if (chain) chains.delete(chain.turn);
      record(chain, context.turn, startedAt, attempts, "error");
      throw markDependencyFailure(error, "resolver");
    };
    let step: ReferenceStep | Promise<ReferenceStep>;
    try {
      step = resolveReferences(value, references, { tool, resolvers, offers, timeoutMs: resolverTimeoutMs, signal: context.signal });
    } catch (error) {
      return Promise.reject(error).catch(resolverFailed);
    }
    if (isThenable(step)) return step.then((resolved) => afterResolution(resolved, value, attemptRecord, chain, startedAt, context), resolverFailed);
    // Every resolver answered synchronously: no promise turn before the implementation runs.
    try {
      return Promise.resolve(afterResolution(step, value, attemptRecord, chain, startedAt, context));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function afterResolution(step: ReferenceStep, value: unknown, attemptRecord: LedgerAttempt, chain: Chain | undefined, startedAt: number, context: CallContext): Promise<Outcome<Result>> | Outcome<Result> {
    if (step.kind === "resolved") {
      const resolved = applyResolutions(value, step.resolutions);
      return run(resolved, { ...attemptRecord, resolutions: step.resolutions }, chain, startedAt, context);
    }
    if (step.kind === "failed") {
      const failedRecord: LedgerAttempt = { ...attemptRecord, failure: "semantic", errors: step.errors };
      return failAttempt(chain, context.turn, startedAt, "semantic", step.errors, false, failedRecord);
    }
    // Several real candidates: a question, which spends no repair budget.
    const candidates = step.candidates.map(({ id, label }) => ({ id, label }));
    const asked: LedgerAttempt = { ...attemptRecord, question: { field: step.path, candidates } };
    const open = chain ?? new OpenChain(context.turn, startedAt, asked);
    if (chain) open.attempts.push(asked);
    (open.offers ??= new Map()).set(step.path, candidates);
    chains.put(open, Date.now());
    record(open, context.turn, startedAt, open.attempts.slice(), "open");
    const outcome: AmbiguousReferenceOutcome = {
      status: "ambiguous_reference",
      tool,
      field: step.path,
      candidates,
      detail: ambiguityDetail(tool, step),
      attempts: open.attempts.length,
    };
    return outcome;
  }

  /** Fail-closed mode: the implementation runs only while the ledger can be written. */
  function run(value: unknown, attemptRecord: LedgerAttempt, chain: Chain | undefined, startedAt: number, context: CallContext): Promise<Outcome<Result>> {
    if (!failClosed) return runImplementation(value, attemptRecord, chain, startedAt, context);
    const refuse = (): Outcome<Result> => {
      const attempts = chain ? [...chain.attempts, attemptRecord] : [attemptRecord];
      if (chain) chains.delete(chain.turn);
      record(chain, context.turn, startedAt, attempts, "ledger_unavailable");
      return ledgerUnavailable(tool, attempts.length);
    };
    const gate = ledgerGate(ledger());
    if (gate === true) return runImplementation(value, attemptRecord, chain, startedAt, context);
    if (gate === false) return Promise.resolve(refuse());
    return gate.then((open) => (open ? runImplementation(value, attemptRecord, chain, startedAt, context) : refuse()));
  }

  /** Steps 5-6: the key and the implementation. Only a valid, resolved attempt gets here. */
  function runImplementation(value: unknown, attemptRecord: LedgerAttempt, chain: Chain | undefined, startedAt: number, context: CallContext): Promise<Outcome<Result>> {
    const attempts = chain ? [...chain.attempts, attemptRecord] : [attemptRecord];
    if (chain) chains.delete(chain.turn);
    const args = value as Validated<Args>;
    // The key is a pure function of the validated arguments, taken from the attempt's raw text
    // and coercions (immutable) rather than from `args`, which the implementation may mutate.
    // It is computed on first read, so the valid path does not pay for hashing nobody reads.
    const snapshot = new Snapshot(tool, attemptRecord.raw, attemptRecord.coercions, attemptRecord.resolutions ?? NO_RESOLUTIONS, attemptRecord.absent);
    const failedRun = (error: unknown): never => {
      // The implementation's own failure: recorded, then propagated unchanged (marked, so the
      // resilience layers can tell it from anything else).
      record(chain, context.turn, startedAt, attempts, "error", snapshot);
      throw markDependencyFailure(error, "implementation");
    };
    if (gate) {
      try {
        if (keyOf) snapshot.intent(keyOf(args));
      } catch (error) {
        return Promise.reject(error).catch(failedRun);
      }
      const ctx = new GuardContext(tool, context.turn, context.signal, snapshot);
      return gate.run(tool, snapshot.key(), snapshot.fingerprint(), () => implementation(args, ctx)).then((gated) => {
        if (gated.kind === "ran") return succeed(gated.result, chain, attempts, attemptRecord, snapshot, context.turn, startedAt);
        if (gated.kind === "replayed") return succeed(gated.result, chain, attempts, attemptRecord, snapshot, context.turn, startedAt, true);
        record(chain, context.turn, startedAt, attempts, "conflict", snapshot);
        countIdempotencyConflict(attributes);
        return idempotencyConflict(tool, snapshot.key(), attempts.length);
      }, failedRun);
    }
    const ctx = new GuardContext(tool, context.turn, context.signal, snapshot);
    let returned: Promise<Result> | Result;
    try {
      returned = implementation(args, ctx);
    } catch (error) {
      return Promise.reject(error).catch(failedRun);
    }
    if (!isThenable(returned)) return Promise.resolve(succeed(returned, chain, attempts, attemptRecord, snapshot, context.turn, startedAt));
    return Promise.resolve(returned).then((value) => succeed(value, chain, attempts, attemptRecord, snapshot, context.turn, startedAt), failedRun);
  }

  function succeed(
    result: Result,
    chain: ChainIdentity | undefined,
    attempts: readonly LedgerAttempt[],
    attemptRecord: LedgerAttempt,
    snapshot: Snapshot,
    turn: string,
    startedAt: number,
    replayed = false,
  ): Outcome<Result> {
    const repaired = failedAttempts(attempts) > 0;
    record(chain, turn, startedAt, attempts, replayed ? "replayed" : repaired ? "repaired" : "ok", snapshot);
    if (repaired) countRepairSucceeded(attributes);
    return new OkResult(tool, result, attemptRecord.coercions, attempts.length, snapshot, replayed);
  }

  async function drive(first: Promise<Outcome<Result>>, context: CallContext, repair: NonNullable<CallContext["repair"]>): Promise<Outcome<Result>> {
    let outcome = await first;
    while (outcome.status === "validation_failed") {
      const reply = unpack(await repair(outcome));
      outcome = await step(reply.raw, { turn: context.turn, finishReason: reply.finishReason, signal: context.signal });
    }
    return outcome;
  }

  return {
    name: tool,
    call(raw, context) {
      // Backpressure is read before the step: a call made while the sink is over its bound
      // gets its outcome once the sink has caught up.
      const sink = ledger();
      const pressure = sink.backpressure?.();
      const first = step(raw, context);
      const outcome = context.repair ? drive(first, context, context.repair) : first;
      return durable || pressure ? settleWithLedger(outcome, sink, durable, pressure) : outcome;
    },
  };
}

const NO_OFFERS: ReadonlyMap<string, readonly Candidate[]> = new Map();

/**
 * A chain whose budget is set by its first failure (`maxAttempts` 0 until then). Its id is
 * minted when first read, which is when its first ledger entry is serialised: off the failed
 * call's path, and once, so every entry of the chain carries the same id.
 */
class OpenChain implements Chain {
  readonly turn: string;
  readonly startedAt: number;
  readonly attempts: LedgerAttempt[];
  maxAttempts = 0;
  rejected = false;
  lastFailure: FailureClass | undefined = undefined;
  lastErrors: readonly ArgumentError[] = NO_ERRORS;
  touchedAt = 0;
  offers: Map<string, readonly Candidate[]> | undefined = undefined;
  #id: string | undefined;

  constructor(turn: string, startedAt: number, first: LedgerAttempt) {
    this.turn = turn;
    this.startedAt = startedAt;
    // A literal of one: open chains are kept (up to 10,000 of them), and an empty array grown
    // by `push` would carry sixteen spare slots each.
    this.attempts = [first];
  }

  get id(): string {
    return (this.#id ??= crypto.randomUUID());
  }
}


function failedAttempts(attempts: readonly LedgerAttempt[]): number {
  let count = 0;
  for (const attempt of attempts) if (attempt.failure) count++;
  return count;
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * A repair reply is either the model's raw arguments or `{arguments, finishReason?}`. An object
 * is read as that wrapper only when `arguments` is its only key besides `finishReason`.
 */
function unpack(reply: RepairReply): { raw: unknown; finishReason: string | undefined } {
  if (reply !== null && typeof reply === "object" && !Array.isArray(reply) && Object.hasOwn(reply, "arguments")) {
    const keys = Object.keys(reply);
    if (keys.every((key) => key === "arguments" || key === "finishReason")) {
      const wrapper = reply as { arguments: unknown; finishReason?: unknown };
      return { raw: wrapper.arguments, finishReason: typeof wrapper.finishReason === "string" ? wrapper.finishReason : undefined };
    }
  }
  return { raw: reply, finishReason: undefined };
}

function failed(
  failure: FailureClass,
  errors: readonly ArgumentError[],
  truncated: boolean,
  raw: string,
  coercions: readonly Coercion[],
  finishReason: string | undefined,
  started: number,
): AttemptResult {
  return { ok: false, failure, errors, truncated, started, record: { raw, finishReason, failure, errors, coercions, guardMs: performance.now() - started } };
}

/** What the implementation receives besides its arguments; the key is derived on first read. */
class GuardContext implements ImplementationContext {
  readonly tool: string;
  readonly turn: string;
  readonly signal: AbortSignal | undefined;
  readonly #snapshot: Snapshot;

  constructor(tool: string, turn: string, signal: AbortSignal | undefined, snapshot: Snapshot) {
    this.tool = tool;
    this.turn = turn;
    this.signal = signal;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }
}

/** The ok outcome; a class so the key can be derived on first read, serialised by `toJSON`. */
class OkResult<Result> implements OkOutcome<Result> {
  readonly status = "ok" as const;
  readonly tool: string;
  readonly result: Result;
  readonly coercions: readonly Coercion[];
  readonly attempts: number;
  readonly replayed: boolean | undefined;
  readonly #snapshot: Snapshot;

  constructor(tool: string, result: Result, coercions: readonly Coercion[], attempts: number, snapshot: Snapshot, replayed: boolean) {
    this.tool = tool;
    this.result = result;
    this.coercions = coercions;
    this.attempts = attempts;
    this.replayed = replayed ? true : undefined;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }

  toJSON(): OkOutcome<Result> {
    const { status, tool, result, coercions, attempts, idempotencyKey, replayed } = this;
    return replayed ? { status, tool, result, coercions, attempts, idempotencyKey, replayed } : { status, tool, result, coercions, attempts, idempotencyKey };
  }
}
