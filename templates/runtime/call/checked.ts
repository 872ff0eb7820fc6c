// What `check` hands over when the arguments pass: the caller runs its own code with them.
import type { Validated } from "../contract/api.ts";
import type { Coercion } from "../contract/outcome.ts";
import type { Snapshot } from "./ok-result.ts";

/** What `check` hands over; the key is derived on first read. */
export class Checked<Args> {
  readonly ok = true as const;
  readonly args: Validated<Args>;
  readonly coercions: readonly Coercion[];
  readonly attempts: number;
  readonly #snapshot: Snapshot;

  constructor(args: Validated<Args>, coercions: readonly Coercion[], attempts: number, snapshot: Snapshot) {
    this.args = args;
    this.coercions = coercions;
    this.attempts = attempts;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }
}
