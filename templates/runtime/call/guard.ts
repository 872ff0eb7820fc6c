// The guarded call's control flow: parse -> coerce -> validate (attempt.ts) -> resolve references
// (resolve/) -> mint idempotency key -> run the implementation, with every failed attempt answered
// by an envelope (explain/) and bounded by the turn's repair budget (chain-store.ts), and every
// chain recorded (ledger/). `check` is the same guard without the implementation, synchronous.
//
// How attempts form a chain: every call at one bound tool with the same `context.turn` shares
// one budget, parallel calls included. That serves both ways of using the guard:
//   (a) an agent framework feeds each tool call in as the model produces it, passing the same
//       `turn`; the guard counts the attempts itself, so the caller cannot loop past the bound;
//   (b) the caller passes `context.repair`; the guard hands each failure envelope to it and
//       calls it at most as often as the budget allows, all within one `call`.
// A chain's budget is one repair (two failed attempts), or two when its first failure was cut
// off at the provider's token limit (its finish reason says so; text that only looks cut off
// does not count). A success closes the chain; a later failure in the turn opens a new one, but
// the turn allows TURN_CHAINS chains' worth of failures in all, so alternating successes cannot
// make failures unlimited. Once refused, a turn stays refused. A reference question
// (`ambiguous_reference`) spends no budget while the turn has asked fewer than MAX_QUESTIONS;
// once asked, the field accepts only an identifier that was offered.
import type { CallContext, CheckResult, GuardedTool, GuardOptions, Implementation, ResolverMap, Validated } from "../contract/api.ts";
import type { AmbiguousReferenceOutcome, ArgumentError, FailedOutcome, FailureClass, Outcome } from "../contract/outcome.ts";
import type { ToolSpec } from "../contract/tool-spec.ts";
import type { LedgerAttempt, LedgerSink, Verdict } from "../ledger/ledger.ts";
import { planCoercions } from "../coerce/coerce.ts";
import { argumentsRejected, validationFailed } from "../explain/envelope.ts";
import { appendEntry, ChainRecord } from "../ledger/chain-record.ts";
import { defaultLedger } from "../ledger/ledger-jsonl.ts";
import { DEFAULT_LIMITS } from "../parse/parse.ts";
import { ambiguityDetail, applyResolutions, compileReferences, DEFAULT_RESOLVER_TIMEOUT_MS, resolveReferences, type ReferencePattern, type ReferenceStep } from "../resolve/references.ts";
import { planFixedReference, resolveFixed, type FixedReference } from "../resolve/fixed-reference.ts";
import { countCall, countFailure, countRepairExhausted, countRepairSucceeded, toolAttributes, type ToolAttributes } from "../telemetry/telemetry.ts";
import { checkAttempt, STRICT_PARTS, type AttemptSetup, type GuardParts } from "./attempt.ts";
import { PROCESS_CHAINS, TurnState, type ChainStore, type OpenChain, type TurnOwner } from "./chain-store.ts";
import { requireResolvers } from "./lazy-tool.ts";
import { Checked } from "./checked.ts";
import { GuardContext, OkResult, Snapshot } from "./ok-result.ts";
import { isThenable, unpack } from "./repair-reply.ts";

export { STRICT_PARTS, type GuardParts } from "./attempt.ts";

const DEFAULT_MAX_ERRORS = 20;
/** Reference questions a turn may ask for free; each further one counts as a failed attempt. */
export const MAX_QUESTIONS = 4;
/** A turn's failures over all its chains: this many chains' budgets. */
const TURN_CHAINS = 2;
/** Refused calls recorded in a rejected turn's chain; later ones are answered but not written. */
const MAX_RECORDED_REFUSALS = 4;
const REFUSAL: ArgumentError = { path: "", rule: "repair_budget", message: "the repair budget for this turn is spent; no further attempt is checked" };
const NO_OFFERS: TurnState["offers"] & object = new Map();
let boundTools = 0;

/** An attempt that passed every check (what the implementation receives), or what the model gets. */
type Passed = { readonly ok: true; readonly value: unknown; readonly record: LedgerAttempt };
type Step = Passed | FailedOutcome;
export function createGuard<Args, Result>(
  spec: ToolSpec,
  implementation: Implementation<Args, Result>,
  options: GuardOptions & { readonly resolvers?: ResolverMap<string> } = {},
  parts: GuardParts = STRICT_PARTS,
  store: ChainStore = PROCESS_CHAINS,
): GuardedTool<Result, Args> {
  return new Guard<Args, Result>(spec, implementation, options, parts, store);
}

class Guard<Args, Result> implements GuardedTool<Result, Args>, TurnOwner {
  readonly name: string;
  readonly #implementation: Implementation<Args, Result>;
  readonly #setup: AttemptSetup;
  readonly #store: ChainStore;
  /** Prefixes the turn in the store's keys: this binding's turns are its own. */
  readonly #prefix: string;
  readonly #attributes: ToolAttributes;
  readonly #references: readonly ReferencePattern[];
  readonly #fixed: FixedReference | undefined;
  readonly #resolvers: ResolverMap<string>;
  readonly #resolverTimeoutMs: number;
  #sink: LedgerSink | undefined;

  constructor(spec: ToolSpec, implementation: Implementation<Args, Result>, options: GuardOptions & { readonly resolvers?: ResolverMap<string> }, parts: GuardParts, store: ChainStore) {
    this.name = spec.name;
    this.#implementation = implementation;
    this.#references = compileReferences(spec.references);
    this.#fixed = planFixedReference(this.#references);
    this.#resolvers = options.resolvers ?? {};
    requireResolvers(spec.name, new Set(this.#references.map((field) => field.kind)), this.#resolvers);
    this.#resolverTimeoutMs = options.resolverTimeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS;
    const limits = { maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxBytes, maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth };
    this.#setup = { spec, parts, limits, maxErrors: options.maxErrors ?? DEFAULT_MAX_ERRORS, plan: planCoercions(spec.coercions), timing: options.timing === true };
    this.#store = store;
    this.#prefix = `${boundTools++}\u0000`;
    this.#attributes = toolAttributes(spec.name);
    this.#sink = options.ledger;
  }

  call(raw: unknown, context: CallContext): Promise<Outcome<Result>> {
    const first = this.#call(raw, context);
    return context.repair ? this.#drive(first, context, context.repair) : first;
  }

  check(raw: unknown, context: CallContext): CheckResult<Args> {
    countCall(this.#attributes);
    const step = this.#guard(raw, context);
    if (isThenable(step)) {
      step.then(undefined, () => undefined);
      throw new TypeError(`toolguard: ${this.name}.check() needs synchronous resolvers, and one returned a promise; use call()`);
    }
    if (!isPassed(step)) return { ok: false, outcome: step };
    const snapshot = new Snapshot(this.name, step.record.raw, step.record.coercions, step.record.resolutions);
    const attempts = this.#close(context.turn, step.record, "ok", snapshot);
    return new Checked(step.value as Validated<Args>, step.record.coercions, attempts, snapshot);
  }

  ready(): Promise<void> {
    return Promise.resolve(); // Loaded already: tools loaded on first use are wrapped (lazy-tool.ts).
  }

  /** The store dropped a turn (evicted, or expired): its open chain still reaches the ledger. */
  dropped(state: TurnState): void {
    const chain = state.chain;
    if (chain && !state.rejected) this.#record(chain, state.turn, chain.attempts, chain.attempts.at(-1)?.question ? "ambiguous" : "abandoned");
  }

  /** One attempt: never awaits before a failure envelope, nor before a synchronous implementation. */
  #call(raw: unknown, context: CallContext): Promise<Outcome<Result>> {
    countCall(this.#attributes);
    let step: Step | Promise<Step>;
    try {
      step = this.#guard(raw, context);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isThenable(step)) return step.then((settled) => (isPassed(settled) ? this.#run(settled, context) : settled));
    return isPassed(step) ? this.#run(step, context) : Promise.resolve(step);
  }

  /** Steps 1-4: the validated, resolved arguments, or the outcome for the model. */
  #guard(raw: unknown, context: CallContext): Step | Promise<Step> {
    const state = this.#state(context.turn);
    if (state?.rejected) return this.#refuse(state, checkAttempt(raw, context.finishReason, this.#setup).record);
    const result = checkAttempt(raw, context.finishReason, this.#setup);
    if (!result.ok) return this.#fail(context.turn, result.failure, result.errors, result.truncated, result.looksTruncated, result.record);
    if (this.#references.length === 0) return result;
    return this.#resolve(result, context);
  }

  /** Step 4: reference fields, through the resolvers; synchronous when every resolver is. */
  #resolve(passed: Passed, context: CallContext): Step | Promise<Step> {
    const turn = context.turn;
    const failed = (error: unknown): never => {
      // A resolver's failure is the dependency's, not the model's: recorded, then thrown.
      this.#close(turn, passed.record, "error", undefined);
      throw error;
    };
    const resolveContext = { tool: this.name, resolvers: this.#resolvers, offers: this.#state(turn)?.offers ?? NO_OFFERS, timeoutMs: this.#resolverTimeoutMs, signal: context.signal };
    try {
      const fixed = this.#fixed && resolveFixed(passed.value, this.#fixed, resolveContext);
      if (fixed) return isThenable(fixed) ? fixed.then((done) => this.#resolved(done.step, done.value, passed.record, turn), failed) : this.#resolved(fixed.step, fixed.value, passed.record, turn);
      const step = resolveReferences(passed.value, this.#references, resolveContext);
      const apply = (done: ReferenceStep): Step => this.#resolved(done, done.kind === "resolved" ? applyResolutions(passed.value, done.resolutions) : passed.value, passed.record, turn);
      return isThenable(step) ? step.then(apply, failed) : apply(step);
    } catch (error) {
      return failed(error);
    }
  }

  #resolved(step: ReferenceStep, value: unknown, record: LedgerAttempt, turn: string): Step {
    if (step.kind === "resolved") {
      // The attempt's own record, not yet handed to anyone (attempt.ts made it with this slot).
      (record as { resolutions?: LedgerAttempt["resolutions"] }).resolutions = step.resolutions;
      return { ok: true, value, record };
    }
    if (step.kind === "failed") return this.#fail(turn, "semantic", step.errors, false, false, { ...record, failure: "semantic", errors: step.errors });
    return this.#ask(step, record, turn);
  }

  /** Several real candidates: a question back to the model, free while the turn asked few. */
  #ask(step: Extract<ReferenceStep, { kind: "ambiguous" }>, record: LedgerAttempt, turn: string): FailedOutcome {
    const state = this.#state(turn) ?? new TurnState(this.#prefix + turn, turn, this);
    if (state.rejected) return this.#refuse(state, record);
    if (++state.questions > MAX_QUESTIONS) {
      const errors = [{ path: step.path, rule: "too_many_questions", message: `this turn already asked ${MAX_QUESTIONS} questions about references; ask the user which ${step.refKind} they mean` }];
      return this.#fail(turn, "semantic", errors, false, false, { ...record, failure: "semantic", errors });
    }
    const candidates = step.candidates.map(({ id, label }) => ({ id, label }));
    const chain = state.append({ ...record, question: { field: step.path, candidates } });
    (state.offers ??= new Map()).set(step.path, candidates);
    this.#store.put(state);
    this.#record(chain, turn, chain.attempts.slice(), "open");
    const outcome: AmbiguousReferenceOutcome = { status: "ambiguous_reference", tool: this.name, field: step.path, candidates, detail: ambiguityDetail(this.name, step), attempts: chain.attempts.length };
    return outcome;
  }

  /** Counts a failed attempt against the turn: a correction while the budget lasts, then a refusal. */
  #fail(turn: string, failure: FailureClass, errors: readonly ArgumentError[], truncated: boolean, looksTruncated: boolean, record: LedgerAttempt): FailedOutcome {
    countFailure(this.name, failure, errors);
    // Read now, not when the attempt began: a parallel call may have opened or refused the turn.
    const state = this.#state(turn) ?? new TurnState(this.#prefix + turn, turn, this);
    if (state.rejected) return this.#refuse(state, record);
    const parts = this.#setup.parts;
    const left = state.spend(parts.maxAttempts(truncated), TURN_CHAINS * parts.maxAttempts(false));
    const chain = state.append(record);
    const made = chain.attempts.length;
    if (left <= 0) {
      state.rejected = true;
      this.#store.put(state);
      this.#record(chain, turn, chain.attempts.slice(), "rejected");
      countRepairExhausted(this.#attributes);
      return argumentsRejected(this.name, failure, errors, made, false);
    }
    this.#store.put(state);
    // Written now, not only when the chain ends: a crash before the model's next attempt must not
    // lose this one. The chain's final entry supersedes it. A copy, because sinks serialise later.
    this.#record(chain, turn, chain.attempts.slice(), "open");
    return validationFailed(this.name, failure, errors, made, left, looksTruncated);
  }

  /** A call in a refused turn: answered with its own errors, recorded in the refused chain. */
  #refuse(state: TurnState, record: LedgerAttempt): FailedOutcome {
    const own = record.failure ? record.errors : [];
    // A refused turn keeps the chain that was refused (only a success or an error closes one).
    const chain = state.chain as OpenChain;
    const failure = record.failure ?? chain.attempts.at(-1)?.failure ?? "structural";
    if (chain.attempts.length < state.maxFailures + MAX_QUESTIONS + MAX_RECORDED_REFUSALS) {
      chain.attempts.push({ ...record, errors: [REFUSAL, ...own] });
      this.#record(chain, state.turn, chain.attempts.slice(), "rejected");
    }
    return argumentsRejected(this.name, failure, own.length > 0 ? own : [REFUSAL], chain.attempts.length, true);
  }

  /** Steps 5-6: the key (on demand) and the implementation. */
  #run(passed: Passed, context: CallContext): Promise<Outcome<Result>> {
    const record = passed.record;
    const snapshot = new Snapshot(this.name, record.raw, record.coercions, record.resolutions);
    let returned: Promise<Result> | Result;
    try {
      returned = this.#implementation(passed.value as Validated<Args>, new GuardContext(this.name, context.turn, context.signal, snapshot));
    } catch (error) {
      // The implementation's own failure: recorded, then propagated unchanged.
      this.#close(context.turn, record, "error", snapshot);
      return Promise.reject(error);
    }
    if (!isThenable(returned)) return Promise.resolve(this.#succeed(returned, record, snapshot, context.turn));
    return returned.then(
      (value) => this.#succeed(value, record, snapshot, context.turn),
      (error: unknown) => {
        this.#close(context.turn, record, "error", snapshot);
        throw error;
      },
    );
  }

  #succeed(result: Result, record: LedgerAttempt, snapshot: Snapshot, turn: string): Outcome<Result> {
    return new OkResult(this.name, result, record.coercions, this.#close(turn, record, "ok", snapshot), snapshot);
  }

  /**
   * Ends the turn's open chain with this attempt (a chain of its own when none is open, or when
   * the turn was refused meanwhile: a valid call finishing late neither lifts the refusal nor
   * refills the budget). Returns the chain's number of attempts.
   */
  #close(turn: string, record: LedgerAttempt, verdict: "ok" | "error", snapshot: Snapshot | undefined): number {
    const state = this.#state(turn);
    const chain = state && !state.rejected ? state.chain : undefined;
    if (state === undefined || chain === undefined) {
      this.#record(undefined, turn, [record], verdict, snapshot);
      return 1;
    }
    chain.attempts.push(record);
    state.close();
    // The turn is remembered while it has spent budget or offered candidates.
    if (state.failures === 0 && state.offers === undefined) this.#store.delete(state.key);
    const repaired = verdict === "ok" && chain.attempts.some((attempt) => attempt.failure !== undefined);
    if (repaired) countRepairSucceeded(this.#attributes);
    this.#record(chain, turn, chain.attempts, repaired ? "repaired" : verdict, snapshot);
    return chain.attempts.length;
  }

  #state(turn: string): TurnState | undefined {
    return this.#store.size === 0 ? undefined : this.#store.get(this.#prefix + turn);
  }

  /** Appends a chain's current state; `chain` undefined for a chain of one valid attempt. */
  #record(chain: OpenChain | undefined, turn: string, attempts: readonly LedgerAttempt[], verdict: Verdict, snapshot?: Snapshot): void {
    appendEntry((this.#sink ??= defaultLedger()), new ChainRecord(chain, this.name, turn, chain?.startedAt, verdict, attempts, snapshot));
  }

  async #drive(first: Promise<Outcome<Result>>, context: CallContext, repair: NonNullable<CallContext["repair"]>): Promise<Outcome<Result>> {
    let outcome = await first;
    while (outcome.status === "validation_failed") {
      const reply = unpack(await repair(outcome));
      outcome = await this.#call(reply.raw, { turn: context.turn, finishReason: reply.finishReason, signal: context.signal });
    }
    return outcome;
  }
}

function isPassed(step: Step): step is Passed {
  return (step as Passed).ok === true;
}
