// What `check` hands over when the arguments pass: the caller runs its own code with them.
import type { Validated } from "../contract/api.ts";
import type { Coercion } from "../contract/outcome.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import type { Snapshot } from "./ok-result.ts";

/** Makes the snapshot of a passing attempt (the guard's, one function per bound tool). */
export type SnapshotOf = (record: LedgerAttempt) => Snapshot;

/**
 * What `check` hands over; the key is derived on first read, from a snapshot made then: a caller
 * that never reads the key costs no snapshot (the ledger's entry needs none for arguments that
 * are the raw text's).
 */
export class Checked<Args> {
  readonly ok = true as const;
  readonly args: Validated<Args>;
  /** The first 100 coercions applied (`MAX_COERCION_RECORDS`). */
  readonly coercions: readonly Coercion[];
  /** Present when more coercions were applied than `coercions` lists: how many more. */
  readonly coercionsOmitted: number | undefined;
  readonly attempts: number;
  readonly #record: LedgerAttempt;
  readonly #snapshotOf: SnapshotOf;
  #snapshot: Snapshot | undefined;

  constructor(args: Validated<Args>, record: LedgerAttempt, attempts: number, snapshotOf: SnapshotOf) {
    this.args = args;
    this.coercions = record.coercions;
    this.coercionsOmitted = record.coercionsOmitted;
    this.attempts = attempts;
    this.#record = record;
    this.#snapshotOf = snapshotOf;
  }

  get idempotencyKey(): string {
    return (this.#snapshot ??= this.#snapshotOf(this.#record)).key();
  }
}
