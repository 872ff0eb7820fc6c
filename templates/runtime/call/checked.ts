// What `check` hands over when the arguments pass: the caller runs its own code with them.
import type { Validated } from "../contract/api.ts";
import type { Coercion } from "../contract/outcome.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import type { Snapshot } from "./ok-result.ts";

/** What `check` hands over; the key is derived on first read. */
export class Checked<Args> {
  readonly ok = true as const;
  readonly args: Validated<Args>;
  /** The first 100 coercions applied (`MAX_COERCION_RECORDS`). */
  readonly coercions: readonly Coercion[];
  /** Present when more coercions were applied than `coercions` lists: how many more. */
  readonly coercionsOmitted: number | undefined;
  readonly attempts: number;
  readonly #snapshot: Snapshot;

  constructor(args: Validated<Args>, record: LedgerAttempt, attempts: number, snapshot: Snapshot) {
    this.args = args;
    this.coercions = record.coercions;
    this.coercionsOmitted = record.coercionsOmitted;
    this.attempts = attempts;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }
}
