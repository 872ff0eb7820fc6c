// The guarded call's control flow: parse -> coerce -> validate (attempt.ts) -> resolve references
// (resolve/) -> mint idempotency key -> run the implementation (through compose/ when asked),
// every failed attempt answered by an envelope (explain/) and bounded by the turn's budget
// (chain-store.ts), every chain recorded (ledger/). `check` is the same guard, synchronous,
// without the implementation.
//
// The budget, per bound tool and `context.turn` (docs/repair-budget.md): parallel calls share the
// open chain; a chain allows one repair (two when its first failure was cut off, by the
// provider's finish reason); a success closes the chain but the turn allows TURN_CHAINS chains'
// failures in all; a refused turn stays refused; MAX_QUESTIONS reference questions are free.
import type { CallContext, CheckResult, GuardedTool, Implementation, Validated } from "../contract/api.ts";
import type { ArgumentError, FailedOutcome, Outcome } from "../contract/outcome.ts";
import type { ToolSpec } from "../contract/tool-spec.ts";
import type { QueueTicket } from "../compose/write-queue.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import { applyCoercions } from "../coerce/coerce.ts";
import { argumentsRejected, idempotencyConflict, validationFailed } from "../explain/envelope.ts";
import { markRefused } from "../ledger/chain-record.ts";
import type { GuardLedger, ClosingVerdict } from "../ledger/settle.ts";
import { questionOutcome, tooManyQuestions, type ReferenceStep } from "../resolve/references.ts";
import { resolveStage, type BoundReferences } from "../resolve/bind-references.ts";
import type { ToolAttributes, ToolTelemetry } from "../telemetry/telemetry.ts";
import { countFailure, countIdempotencyConflict, countRepairExhausted, countRepairSucceeded } from "../telemetry/telemetry.ts";
import { markDependencyFailure } from "../compose/failure-kinds.ts";
import { guardAttempt, STRICT_PARTS, type AttemptSetup, type AttemptTurn, type FailedAttempt, type GuardParts, type PassedAttempt } from "./attempt.ts";
import type { Composition } from "./composition.ts";
import { StoredAttempt } from "./stored-attempt.ts";
import type { ChainStore } from "./chain-store.ts";
import { TurnState, type TurnOwner } from "./turn-state.ts";
import { Checked, type SnapshotOf } from "./checked.ts";
import { planCall, type CallPlan, type PlanOptions } from "./plan.ts";
import { checkBinding, contextProblem } from "./binding-checks.ts";
import { argumentsChanged, GuardContext, OkResult, Snapshot } from "./ok-result.ts";
import { driveRepairs, isThenable } from "./repair-reply.ts";

export { STRICT_PARTS, type GuardParts } from "./attempt.ts";

/** Reference questions a turn may ask for free; each further one counts as a failed attempt. */
export const MAX_QUESTIONS = 4;
/** A turn's failures over all its chains: this many chains' budgets. */
const TURN_CHAINS = 2;
/** Refused calls recorded in a rejected turn's chain; later ones are answered but not written. */
const MAX_RECORDED_REFUSALS = 4;
const REFUSAL: ArgumentError = { path: "", rule: "repair_budget", message: "the repair budget for this turn is spent; no further attempt is checked" };
const NO_OFFERS: TurnState["offers"] & object = new Map();

/**
 * An attempt that passed every check (what the implementation receives), or what the model gets.
 * The passing attempt itself (attempt.ts) until a step replaces it: the reference step's result,
 * or the write queue's, which carries the call's ticket.
 */
type Passed = PassedAttempt & { readonly ticket?: QueueTicket };
type Step = Passed | FailedOutcome;
export function createGuard<Args, Result>(
  spec: ToolSpec,
  implementation: Implementation<Args, Result>,
  options: PlanOptions<Args> = {},
  parts: GuardParts = STRICT_PARTS,
): GuardedTool<Result, Args> & { readonly telemetry: ToolTelemetry } {
  checkBinding(spec.name, implementation, options);
  return new Guard<Args, Result>(spec.name, implementation, planCall(spec, options, parts));
}

class Guard<Args, Result> implements GuardedTool<Result, Args>, TurnOwner {
  readonly name: string;
  /** The tool's telemetry (call plan): the tracing wrapper lends it the instruments of the call it starts. */
  readonly telemetry: ToolTelemetry;
  readonly #implementation: Implementation<Args, Result>;
  readonly #setup: AttemptSetup;
  readonly #store: ChainStore;
  /** Prefixes the turn in the store's keys: this binding's turns are its own. */
  readonly #prefix: string;
  readonly #attributes: ToolAttributes;
  readonly #references: BoundReferences | undefined;
  /** The layers around the implementation the options ask for (compose/), if any. */
  readonly #composition: Composition<Args> | undefined;
  /** The sink (the default opened on the first entry), redaction, caps, durable and fail-closed modes. */
  readonly #ledger: GuardLedger;
  /** This tool's turns in the store, counted by the store (TurnOwner). */
  kept = 0;
  /** Guards bound so far in this process: each one's number prefixes its turns' keys. */
  static #bound = 0;

  /** `plan`: every choice made once for this tool and binding (plan.ts); the calls follow it. */
  constructor(name: string, implementation: Implementation<Args, Result>, plan: CallPlan<Args>) {
    this.name = name;
    this.#implementation = implementation;
    this.#setup = plan.attempt;
    this.#references = plan.references;
    this.#composition = plan.composition;
    this.#store = plan.chains;
    this.#ledger = plan.ledger;
    this.telemetry = plan.telemetry;
    this.#attributes = plan.telemetry.attributes;
    this.#prefix = `${Guard.#bound++}\u0000`;
  }

  call(raw: unknown, context: CallContext): Promise<Outcome<Result>> {
    const misused = contextProblem(this.name, "call", context);
    if (misused) return Promise.reject(misused);
    const pressure = this.#ledger.pressure();
    const first = this.#call(raw, context);
    return this.#ledger.settle(context.repair ? driveRepairs(first, context, context.repair, this.#repairCall) : first, pressure);
  }

  /** A repair's attempt (`driveRepairs`): one function per bound tool, so `call` makes no closure. */
  readonly #repairCall = (raw: unknown, next: CallContext): Promise<Outcome<Result>> => this.#call(raw, next);

  check(raw: unknown, context: CallContext): CheckResult<Args> {
    const misused = contextProblem(this.name, "check", context);
    if (misused) throw misused;
    this.telemetry.countCall();
    return guardAttempt(raw, context, this.#setup, this.#checkTurn);
  }

  /**
   * `check`'s turn: a pass is closed and handed over as `Checked`, with nothing made between.
   * Without references nothing runs between the turn's look-up and the close, so the close takes
   * the state looked up here (one probe of the store per call, none while no turn is kept).
   * Synchronous: a failure's entry is written through before the result is returned.
   */
  readonly #checkTurn: AttemptTurn<CallContext, CheckResult<Args>> = {
    failed: (context, attempt) => this.#writtenThrough(() => ({ ok: false, outcome: this.#failed(context.turn, attempt) })),
    passed: (context, passed) => {
      // No turn kept and no references: nothing can refuse the pass or fail it now, and nothing is written through.
      if (this.kept === 0 && this.#references === undefined) return this.#checked(context.turn, passed.value, passed.record, undefined);
      return this.#writtenThrough(() => this.#checkPassed(context, passed));
    },
  };

  /** `check`'s pass in a kept turn, or through the resolvers. */
  #checkPassed(context: CallContext, passed: PassedAttempt): CheckResult<Args> {
    const state = this.#state(context.turn);
    if (state?.rejected) return { ok: false, outcome: this.#refuse(state, passed.record) };
    if (this.#references === undefined) return this.#checked(context.turn, passed.value, passed.record, state);
    // The resolvers run the caller's code, which may change the turn (another check in it): the close reads it again.
    const step = this.#resolve(passed, context, this.#references);
    if (isThenable(step)) {
      step.then(undefined, () => undefined);
      throw new TypeError(`toolguard: ${this.name}.check() needs synchronous resolvers, and one returned a promise; use call()`);
    }
    return isPassed(step) ? this.#checked(context.turn, step.value, step.record, this.#state(context.turn)) : { ok: false, outcome: step };
  }

  /** `run` with the ledger told that `check` is on the stack: a failure's entry recorded meanwhile is written through. */
  #writtenThrough(run: () => CheckResult<Args>): CheckResult<Args> {
    const ledger = this.#ledger;
    ledger.synchronous = true;
    try {
      return run();
    } finally {
      ledger.synchronous = false;
    }
  }

  /** Record and hand over; `state`: the turn's, read now. A snapshot only where read (the entry's when the arguments changed; the key's, by `Checked`). */
  #checked(turn: string, value: unknown, record: LedgerAttempt, state: TurnState | undefined): Checked<Args> {
    const snapshot = argumentsChanged(record) ? this.#snapshot(record) : undefined;
    const attempts = state === undefined ? this.#closeAlone(turn, record, "ok", snapshot) : this.#closeIn(state, record, "ok", snapshot);
    return new Checked(value as Validated<Args>, record, attempts, this.#snapshotOf);
  }

  readonly #snapshotOf: SnapshotOf = (record) => this.#snapshot(record); // One per bound tool, for `Checked`.

  ready(): Promise<void> {
    return Promise.resolve(); // Loaded already: tools loaded on first use are wrapped (lazy-tool.ts).
  }

  /** The store dropped a turn (evicted, or expired): its open chain still reaches the ledger. */
  dropped(state: TurnState): void {
    const chain = state.chain;
    // Only a turn that asked a question has offers (`#ask` sets them with it): any other turn's
    // last attempt, long cold in a full store, is not read to learn it asked none.
    const asked = state.offers !== undefined && state.last?.question;
    if (chain && !state.rejected) this.#ledger.record(chain, state.turn, state.attempts(), asked ? "ambiguous" : "abandoned");
  }

  /** One attempt: never awaits before a failure envelope, nor before a synchronous implementation. */
  #call(raw: unknown, context: CallContext): Promise<Outcome<Result>> {
    this.telemetry.countCall();
    let step: Step | Promise<Step>;
    try {
      step = guardAttempt(raw, context, this.#setup, this.#callTurn);
    } catch (error) {
      return Promise.reject(error);
    }
    // A failure's envelope goes back once its entry is written (`returned`).
    if (isThenable(step)) return this.#stepSettled(step, context);
    return isPassed(step) ? this.#ran(step, context) : Promise.resolve(this.#ledger.returned(step));
  }

  // The closures of the steps that wait (a resolver's promise, the write queue's place, an
  // asynchronous implementation) are made in methods of their own: a closure makes its function
  // allocate a context for what it captures on every call, a synchronous valid call too (0.02x-
  // 0.05x of the floor on `call`, bench/README.md "valid18").

  /** `#call` once an asynchronous step (a resolver, the write queue) has settled. */
  #stepSettled(step: Promise<Step>, context: CallContext): Promise<Outcome<Result>> {
    return step.then((settled) => (isPassed(settled) ? this.#ran(settled, context) : this.#ledger.returned(settled)));
  }

  /** A passed call run, its place in the write queue (if it took one) left once it has run. */
  #ran(passed: Passed, context: CallContext): Promise<Outcome<Result>> {
    const ticket = passed.ticket;
    return ticket === undefined ? this.#gated(passed, context) : leaving(this.#gated(passed, context), ticket);
  }

  /**
   * `call`'s turn (the steps' order is `guardAttempt`'s, attempt.ts): a pass is resolved and
   * composed; a call ordered by `serializeBy` takes its place in the write queue as it passes.
   */
  readonly #callTurn: AttemptTurn<CallContext, Step | Promise<Step>> = {
    failed: (context, attempt) => this.#failed(context.turn, attempt),
    passed: (context, passed) => {
      const record = passed.record;
      const state = this.#state(context.turn);
      if (state?.rejected) return this.#refuse(state, record);
      const references = this.#references;
      const composition = this.#composition;
      if (!composition?.ordering) return references === undefined ? passed : this.#resolve(passed, context, references);
      return this.#ordered(composition, passed, context, references);
    },
  };

  /** A pass of a call ordered by `serializeBy`: resolved in its turn in the write queue. */
  #ordered(composition: Composition<Args>, passed: Passed, context: CallContext, references: BoundReferences | undefined): Step | Promise<Step> {
    const resolve = (): Step | Promise<Step> => (references === undefined ? passed : this.#resolve(passed, context, references));
    return composition.ordered(resolve, references !== undefined, isPassed, () => this.#close(context.turn, passed.record, "error", undefined));
  }

  /**
   * Bound, refuse, record: a failed attempt in a refused turn is answered with the refusal (and
   * counted by no failure metric); else `#fail` counts it against the turn.
   */
  #failed(turn: string, attempt: FailedAttempt): FailedOutcome {
    // The turn's key, made once: the look-up here, the one `#fail` makes and a new turn share it.
    const key = this.#prefix + turn;
    const state = this.#stateAt(key);
    if (state?.rejected) return this.#refuse(state, attempt.record);
    return this.#fail(turn, attempt, attempt.derivable ? new StoredAttempt(attempt.record, this.#setup) : undefined, key);
  }

  /** Step 4: reference fields, through the resolvers; synchronous when every resolver is. */
  #resolve(passed: Passed, context: CallContext, references: BoundReferences): Step | Promise<Step> {
    const turn = context.turn;
    try {
      const done = resolveStage(passed.value, references, this.#state(turn)?.offers ?? NO_OFFERS, context.signal);
      return isThenable(done) ? this.#resolvedLater(done, turn, passed.record) : this.#resolved(done.step, done.value, passed.record, turn);
    } catch (error) {
      return this.#resolverFailed(error, turn, passed.record);
    }
  }

  /** `#resolve` once an asynchronous resolver has settled. */
  #resolvedLater(done: Promise<{ readonly step: ReferenceStep; readonly value: unknown }>, turn: string, record: LedgerAttempt): Promise<Step> {
    return done.then(
      (settled) => this.#resolved(settled.step, settled.value, record, turn),
      (error: unknown) => this.#resolverFailed(error, turn, record),
    );
  }

  /** A resolver's failure is the dependency's, not the model's: recorded, then thrown. */
  #resolverFailed(error: unknown, turn: string, record: LedgerAttempt): never {
    this.#close(turn, record, "error", undefined);
    throw markDependencyFailure(error, "resolver");
  }

  #resolved(step: ReferenceStep, value: unknown, record: LedgerAttempt, turn: string): Step {
    if (step.kind === "resolved") {
      // The attempt's own record, not yet handed to anyone (attempt.ts made it with this slot).
      (record as { resolutions?: LedgerAttempt["resolutions"] }).resolutions = step.resolutions;
      return { ok: true, value, record };
    }
    if (step.kind === "failed") return this.#fail(turn, semanticFailure(record, step.errors));
    return this.#ask(step, record, turn);
  }

  /** Several real candidates: a question back to the model, free while the turn asked few. */
  #ask(step: Extract<ReferenceStep, { kind: "ambiguous" }>, record: LedgerAttempt, turn: string): FailedOutcome {
    const state = this.#opened(turn);
    if (state.rejected) return this.#refuse(state, record);
    if (++state.questions > MAX_QUESTIONS) {
      const errors = [tooManyQuestions(step, MAX_QUESTIONS)];
      return this.#fail(turn, semanticFailure(record, errors));
    }
    const candidates = step.candidates.map(({ id, label }) => ({ id, label }));
    const chain = state.append({ ...record, question: { field: step.path, target: step.target, candidates } });
    (state.offers ??= new Map()).set(step.path, candidates);
    this.#store.put(state);
    this.#ledger.record(chain, turn, state.attempts(), "open");
    return questionOutcome(this.name, step, candidates, state.made);
  }

  /**
   * Counts a failed attempt against the turn: a correction while the budget lasts, then a refusal.
   * `stored`: the attempt as the chain keeps it, when smaller than its record (stored-attempt.ts);
   * `key`: the turn's key in the store, when the caller made it.
   */
  #fail(turn: string, attempt: FailedAttempt, stored?: LedgerAttempt, key: string = this.#prefix + turn): FailedOutcome {
    const { failure, errors, truncated, looksTruncated, record } = attempt;
    countFailure(this.name, failure, errors);
    const state = this.#openedAt(key, turn);
    if (state.rejected) return this.#refuse(state, record);
    const { maxAttempts } = this.#setup.parts;
    const left = state.spend(maxAttempts(truncated), TURN_CHAINS * maxAttempts(false));
    // One clock read: the chain's start (when this failure opens it) and the turn's last attempt.
    const now = Date.now();
    const chain = state.append(stored ?? record, now);
    const made = state.made;
    // This entry carries the errors in hand; later ones derive stored attempts' errors again.
    const attempts = state.attempts();
    attempts[made - 1] = record;
    state.rejected = left <= 0;
    this.#store.put(state, now);
    if (state.rejected) {
      this.#ledger.record(chain, turn, attempts, "rejected");
      countRepairExhausted(this.#attributes);
      return argumentsRejected(this.name, { failure, errors, attempts: made }, false);
    }
    // Written now, not only when the chain ends: a crash before the model's next attempt must not
    // lose this one. The chain's final entry supersedes it. A copy, because sinks serialise later.
    this.#ledger.record(chain, turn, attempts, "open");
    return validationFailed(this.name, { failure, errors, attempts: made }, left, looksTruncated);
  }

  /** A call in a refused turn: answered with its own errors, recorded in the refused chain. */
  #refuse(state: TurnState, record: LedgerAttempt): FailedOutcome {
    const own = record.failure ? record.errors : [];
    // A refused turn keeps the chain that was refused (only a success or an error closes one).
    const failure = record.failure ?? state.last?.failure ?? "structural";
    if (state.made < state.maxFailures + MAX_QUESTIONS + MAX_RECORDED_REFUSALS) {
      const chain = state.append(markRefused({ ...record, errors: [REFUSAL, ...own] }));
      this.#ledger.record(chain, state.turn, state.attempts(), "rejected");
    }
    return argumentsRejected(this.name, { failure, errors: own.length > 0 ? own : [REFUSAL], attempts: state.made }, true);
  }

  /** Fail-closed and durable modes: the implementation runs only while the ledger can be written, and keep up. */
  #gated(passed: Passed, context: CallContext): Promise<Outcome<Result>> {
    if (!this.#ledger.gated) return this.#run(passed, context);
    return this.#ledger.gate(
      () => this.#run(passed, context),
      () => this.#close(context.turn, passed.record, "ledger_unavailable", undefined),
    );
  }

  /** Steps 5-6: the key (on demand) and the implementation, through the layers asked for. */
  #run(passed: Passed, context: CallContext): Promise<Outcome<Result>> {
    const args = passed.value as Validated<Args>;
    const ctx = new GuardContext(this.name, context.turn, context.signal, this.#snapshot(passed.record));
    const composition = this.#composition;
    if (composition?.gated) return this.#runGated(composition, args, ctx);
    let returned: Promise<Result> | Result;
    try {
      returned = this.#implementation(args, ctx);
    } catch (error) {
      return this.#thrown(error, ctx);
    }
    // A repaired chain's outcome goes back once its entry is written (`returned`).
    if (!isThenable(returned)) return Promise.resolve(this.#ledger.returned(this.#succeed(returned, ctx, false)));
    return this.#awaited(returned, ctx);
  }

  /** `#run` through the idempotency gate (compose/): a replay, a conflict, or the implementation run. */
  #runGated(composition: Composition<Args>, args: Validated<Args>, ctx: GuardContext): Promise<Outcome<Result>> {
    const snapshot = GuardContext.snapshotOf(ctx);
    return composition
      .gate(this.name, args, snapshot, () => this.#implementation(args, ctx))
      .then(
        (gated) => {
          if (gated.kind !== "conflict") return this.#ledger.returned(this.#succeed(gated.result, ctx, gated.kind === "replayed"));
          countIdempotencyConflict(this.#attributes);
          return idempotencyConflict(this.name, snapshot.key(), this.#close(ctx.turn, snapshot.record, "conflict", snapshot));
        },
        (error: unknown) => this.#implementationFailed(error, ctx),
      );
  }

  /** An implementation that threw: recorded once the rejection is handled, as an asynchronous one's. */
  #thrown(error: unknown, ctx: GuardContext): Promise<Outcome<Result>> {
    return Promise.reject(error).catch((rejected: unknown) => this.#implementationFailed(rejected, ctx));
  }

  /** An asynchronous implementation's outcome, once it settles. */
  #awaited(returned: Promise<Result>, ctx: GuardContext): Promise<Outcome<Result>> {
    return Promise.resolve(returned).then(
      (value) => this.#ledger.returned(this.#succeed(value, ctx, false)),
      (error: unknown) => this.#implementationFailed(error, ctx),
    );
  }

  /**
   * The implementation's own failure: recorded, then propagated unchanged (marked, so the
   * resilience layers can tell it from anything else).
   */
  #implementationFailed(error: unknown, ctx: GuardContext): never {
    const snapshot = GuardContext.snapshotOf(ctx);
    this.#close(ctx.turn, snapshot.record, "error", snapshot);
    throw markDependencyFailure(error, "implementation");
  }

  /** The passing attempt's snapshot; one whose coercions are not all listed rebuilds them by the plan. */
  #snapshot(record: LedgerAttempt): Snapshot {
    if (record.coercionsOmitted === undefined) return new Snapshot(this.name, record);
    const { plan, parts } = this.#setup;
    return new Snapshot(this.name, record, (value) => applyCoercions(value, plan, parts.readString, 0));
  }

  /** The ok outcome of the call `ctx` ran (its turn, its passing attempt's snapshot). */
  #succeed(result: Result, ctx: GuardContext, replayed: boolean): Outcome<Result> {
    const snapshot = GuardContext.snapshotOf(ctx);
    return new OkResult(result, snapshot, this.#close(ctx.turn, snapshot.record, replayed ? "replayed" : "ok", snapshot), replayed);
  }

  /**
   * Ends the turn's open chain with this attempt (a chain of its own when none is open, or when
   * the turn was refused meanwhile: a valid call finishing late neither lifts the refusal nor
   * refills the budget). Returns the chain's number of attempts.
   */
  #close(turn: string, record: LedgerAttempt, verdict: ClosingVerdict, snapshot: Snapshot | undefined): number {
    const state = this.#state(turn);
    return state === undefined ? this.#closeAlone(turn, record, verdict, snapshot) : this.#closeIn(state, record, verdict, snapshot);
  }

  /** A chain of this one attempt: no turn is kept for it. */
  #closeAlone(turn: string, record: LedgerAttempt, verdict: ClosingVerdict, snapshot: Snapshot | undefined): number {
    this.#ledger.record(undefined, turn, [record], verdict, snapshot);
    return 1;
  }

  /** `#close` in the turn's state as read just now. */
  #closeIn(state: TurnState, record: LedgerAttempt, verdict: ClosingVerdict, snapshot: Snapshot | undefined): number {
    const turn = state.turn;
    const chain = state.rejected ? undefined : state.chain;
    if (chain === undefined) return this.#closeAlone(turn, record, verdict, snapshot);
    const attempts = state.attempts();
    attempts.push(record);
    state.close();
    // The turn is remembered while it has spent budget or offered candidates.
    if (state.failures === 0 && state.offers === undefined) this.#store.delete(state);
    const repaired = (verdict === "ok" || verdict === "replayed") && attempts.some((attempt) => attempt.failure !== undefined);
    if (repaired) countRepairSucceeded(this.#attributes);
    this.#ledger.record(chain, turn, attempts, repaired && verdict === "ok" ? "repaired" : verdict, snapshot);
    return attempts.length;
  }

  #state(turn: string): TurnState | undefined {
    // No turn of this tool is kept (the common case: valid calls keep none): no key to build, no lookup.
    return this.kept === 0 ? undefined : this.#store.get(this.#prefix + turn);
  }

  /** `#state` by the turn's key in the store (`#prefix` + turn), made already. */
  #stateAt(key: string): TurnState | undefined {
    return this.kept === 0 ? undefined : this.#store.get(key);
  }

  /** The turn's state, read now (a parallel call may have opened or refused it), or a new one. */
  #opened(turn: string): TurnState {
    return this.#openedAt(this.#prefix + turn, turn);
  }

  /** `#opened` by the turn's key in the store, made already. */
  #openedAt(key: string, turn: string): TurnState {
    return this.#stateAt(key) ?? new TurnState(key, turn, this);
  }
}

/** A reference the resolvers could not settle, as the attempt's failure. */
function semanticFailure(record: LedgerAttempt, errors: readonly ArgumentError[]): FailedAttempt {
  return {
    ok: false,
    failure: "semantic",
    errors,
    truncated: false,
    looksTruncated: false,
    record: { ...record, failure: "semantic", errors },
    derivable: false,
  };
}

/** `run`'s promise, its place in the write queue left once it has settled. */
function leaving<T>(run: Promise<T>, ticket: QueueTicket): Promise<T> {
  return run.finally(() => ticket.leave());
}

function isPassed(step: Step): step is Passed {
  return (step as Passed).ok === true;
}
