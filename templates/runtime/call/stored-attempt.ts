// A failed attempt as an open chain keeps it while it waits for the model's next one. The
// explained errors were most of an open chain's memory (~1.2 of ~2.3 KB for six mistakes); they
// are a pure function of the attempt's text, its finish reason and the tool, so the chain keeps
// only those and derives the errors again when a later ledger entry of the chain is read (the
// entry written at the failure itself carries the errors it already has). Only attempts whose
// text alone decides their errors are stored this way: a string within the size limit that
// failed to parse or to validate (a parsed value, a cut text, or a resolver's answer is kept as
// it was).
import type { ArgumentError, Coercion, FailureClass } from "../contract/outcome.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import { checkAttempt, type AttemptSetup } from "./attempt.ts";

/**
 * Reads like the attempt's own record, key for key and in the same order, also when copied with
 * a spread or serialised: `errors` is an own, enumerable accessor. Defining an accessor on an
 * object costs the engine more than the rest of a failed call's bookkeeping (~0.4 us), so the
 * attempt is kept with a placeholder in the accessor's place, and the accessor goes in when the
 * first ledger entry that holds the attempt is read (`settleErrors`, by ledger/chain-record.ts:
 * nothing reads a kept attempt's errors but the entries that carry it).
 */
export class StoredAttempt implements LedgerAttempt {
  declare readonly raw: string;
  declare readonly finishReason: string | undefined;
  declare readonly failure: FailureClass;
  declare readonly errors: readonly ArgumentError[];
  declare readonly coercions: readonly Coercion[];
  declare readonly coercionsOmitted?: number;
  declare readonly guardMs?: number;
  /** The tool's checks, to explain the text again exactly as the guard did when it arrived. */
  readonly #setup: AttemptSetup;

  constructor(record: LedgerAttempt, setup: AttemptSetup) {
    this.#setup = setup;
    const self = this as { -readonly [K in keyof LedgerAttempt]: LedgerAttempt[K] };
    self.raw = record.raw;
    self.finishReason = record.finishReason;
    self.failure = record.failure ?? "structural";
    // The accessor's place in the key order, until `settleErrors`.
    (this as { errors: unknown }).errors = undefined;
    self.coercions = record.coercions;
    if (record.coercionsOmitted !== undefined) self.coercionsOmitted = record.coercionsOmitted;
    if (record.guardMs !== undefined) self.guardMs = record.guardMs;
  }

  #settled = false;

  /** Puts the errors' accessor in the placeholder's place (which keeps its place in the key order); once. */
  settleErrors(): void {
    if (this.#settled) return;
    this.#settled = true;
    // One getter for every instance, so they share one hidden class (a closure each would not).
    Object.defineProperty(this, "errors", ERRORS);
  }

  // A sink reads an attempt's errors several times in a row (to redact, compare, measure): the
  // last answer is kept, so they are derived once per serialisation, not per read.
  static #lastAttempt: StoredAttempt | undefined;
  static #lastErrors: readonly ArgumentError[] = [];

  static explainAgain(attempt: StoredAttempt): readonly ArgumentError[] {
    if (StoredAttempt.#lastAttempt === attempt) return StoredAttempt.#lastErrors;
    const again = checkAttempt(attempt.raw, attempt, attempt.#setup);
    StoredAttempt.#lastErrors = again.ok ? [] : again.errors;
    StoredAttempt.#lastAttempt = attempt;
    return StoredAttempt.#lastErrors;
  }
}

const ERRORS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: StoredAttempt): readonly ArgumentError[] {
    return StoredAttempt.explainAgain(this);
  },
};
