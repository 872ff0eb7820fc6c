// The layers a validated call may pass through on its way to the implementation (compose/): the
// write queue (`serializeBy`) and the idempotency gate (`idempotency`). Each is absent unless the
// options ask for it, so the guard's valid path pays one check for both.
import type { GuardOptions } from "../contract/api.ts";
import { markDependencyFailure } from "../compose/failure-kinds.ts";
import { IdempotencyGate, type GateResult } from "../compose/idempotency-gate.ts";
import { WriteQueue, type QueueTicket } from "../compose/write-queue.ts";
import type { Snapshot } from "./ok-result.ts";

export class Composition<Args> {
  readonly #gate: IdempotencyGate | undefined;
  readonly #keyOf: ((args: never) => string) | undefined;
  readonly #serializeBy: ((args: unknown) => string | undefined) | undefined;
  readonly #queue: WriteQueue | undefined;

  /** The layers `options` ask for, or `undefined` when they ask for none. */
  static of<Args>(options: GuardOptions<never, Args>): Composition<Args> | undefined {
    return options.idempotency || options.serializeBy ? new Composition<Args>(options) : undefined;
  }

  private constructor(options: GuardOptions<never, Args>) {
    this.#gate = options.idempotency ? new IdempotencyGate(options.idempotency.store) : undefined;
    this.#keyOf = options.idempotency?.keyOf as ((args: never) => string) | undefined;
    this.#serializeBy = options.serializeBy as ((args: unknown) => string | undefined) | undefined;
    this.#queue = this.#serializeBy ? new WriteQueue() : undefined;
  }

  get gated(): boolean {
    return this.#gate !== undefined;
  }

  /**
   * The call's place in the write queue, taken as its arguments pass validation: a repaired write
   * is ordered by its validated intent, not by its first emission. What `serializeBy` throws is
   * the implementation's failure: `failed` records it, then it is thrown, marked.
   */
  enter(validated: unknown, failed: () => void): QueueTicket | undefined {
    if (!this.#queue || !this.#serializeBy) return undefined;
    try {
      const key = this.#serializeBy(validated);
      return key === undefined ? undefined : this.#queue.enter(key);
    } catch (error) {
      failed();
      throw markDependencyFailure(error, "implementation");
    }
  }

  /**
   * Waits for the ticket, then takes the rest of the guard (`next`); a step that does not reach
   * the implementation leaves the queue at once, one that does carries the ticket to it.
   */
  queued<Step extends object>(ticket: QueueTicket, next: () => Step | Promise<Step>, reaches: (step: Step) => boolean): Promise<Step> {
    return ticket.ready.then(next).then(
      (step) => {
        if (reaches(step)) return { ...step, ticket };
        ticket.leave();
        return step;
      },
      (error: unknown) => {
        ticket.leave();
        throw error;
      },
    );
  }

  /** Runs `execute` under the call's idempotency key (named by `keyOf`, else the arguments' hash). */
  gate<Result>(tool: string, args: Args, snapshot: Snapshot, execute: () => Promise<Result> | Result): Promise<GateResult<Result>> {
    try {
      if (this.#keyOf) snapshot.intent((this.#keyOf as (args: Args) => string)(args));
    } catch (error) {
      return Promise.reject(error);
    }
    return (this.#gate as IdempotencyGate).run(tool, snapshot.key(), snapshot.fingerprint(), execute);
  }
}
