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

export class StoredAttempt implements LedgerAttempt {
  readonly raw: string;
  readonly finishReason: string | undefined;
  readonly failure: FailureClass;
  readonly coercions: readonly Coercion[];
  readonly guardMs: number | undefined;
  /** The tool's checks, to explain the text again exactly as the guard did when it arrived. */
  readonly #setup: AttemptSetup;

  constructor(record: LedgerAttempt, setup: AttemptSetup) {
    this.raw = record.raw;
    this.finishReason = record.finishReason;
    this.failure = record.failure ?? "structural";
    this.coercions = record.coercions;
    this.guardMs = record.guardMs;
    this.#setup = setup;
  }

  get errors(): readonly ArgumentError[] {
    const again = checkAttempt(this.raw, this.finishReason, this.#setup);
    return again.ok ? [] : again.errors;
  }

  /** The same JSON as the attempt's own record: same keys, same order. */
  toJSON(): LedgerAttempt {
    const { raw, finishReason, failure, errors, coercions, guardMs } = this;
    return guardMs === undefined ? { raw, finishReason, failure, errors, coercions } : { raw, finishReason, failure, errors, coercions, guardMs };
  }
}
