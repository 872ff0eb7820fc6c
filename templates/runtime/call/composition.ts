// The layers a validated call may pass through on its way to the implementation (compose/): the
// write queue (`serializeBy`) and the idempotency gate (`idempotency`). Each is absent unless the
// options ask for it, so the guard's valid path pays one check for both.
import type { GuardOptions } from "../contract/api.ts";
import { markDependencyFailure } from "../compose/failure-kinds.ts";
import { IdempotencyGate, type GateResult } from "../compose/idempotency-gate.ts";
import { AdmissionLine } from "../compose/admission-line.ts";
import { WriteQueue, type QueueTicket } from "../compose/write-queue.ts";
import type { Snapshot } from "./ok-result.ts";

export class Composition<Args> {
  readonly #gate: IdempotencyGate | undefined;
  readonly #keyOf: ((args: never) => string) | undefined;
  readonly #serializeBy: ((args: unknown) => string | undefined) | undefined;
  readonly #queue: WriteQueue | undefined;
  readonly #line = new AdmissionLine();

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

  /** Whether calls are ordered (`serializeBy`). */
  get ordering(): boolean {
    return this.#queue !== undefined;
  }

  /**
   * The rest of the guard for a call whose arguments just passed validation, in its key's write
   * queue: `resolve` gives the resolved step (`reaches` says whether it goes on to the
   * implementation), `serializeBy` keys it by the resolved arguments, and the step comes back
   * with its ticket once the writes before it have run. Without references (`resolves` false)
   * the call enters its queue at once, as it passes validation; with them, it takes a place in
   * the admission line at once and enters the queue in that order (admission-line.ts). What
   * `serializeBy` throws is the implementation's failure: `failed` records it, then it is
   * thrown, marked.
   */
  ordered<Step extends object>(
    resolve: () => Step | Promise<Step>,
    resolves: boolean,
    reaches: (step: Step) => step is Step & { readonly value: unknown },
    failed: () => void,
  ): Step | Promise<Step> {
    if (!resolves) {
      const step = resolve();
      return isPromise(step) || !reaches(step) ? step : this.#queued(step, this.#enter(step.value, failed));
    }
    const place = this.#line.take();
    let resolution: Step | Promise<Step>;
    try {
      resolution = resolve();
    } catch (error) {
      place.release();
      throw error;
    }
    return Promise.resolve(resolution).then(
      (step) => {
        if (!reaches(step)) {
          place.release();
          return step;
        }
        return place.turn.then(() => {
          let ticket: QueueTicket | undefined;
          try {
            ticket = this.#enter(step.value, failed);
          } finally {
            place.release();
          }
          return this.#queued(step, ticket);
        });
      },
      (error: unknown) => {
        place.release();
        throw error;
      },
    );
  }

  #enter(value: unknown, failed: () => void): QueueTicket | undefined {
    try {
      const key = (this.#serializeBy as (args: unknown) => string | undefined)(value);
      return key === undefined ? undefined : (this.#queue as WriteQueue).enter(key);
    } catch (error) {
      failed();
      throw markDependencyFailure(error, "implementation");
    }
  }

  /** The step once its ticket's turn has come, carrying the ticket to the implementation. */
  #queued<Step extends object>(step: Step, ticket: QueueTicket | undefined): Step | Promise<Step> {
    return ticket === undefined ? step : ticket.ready.then(() => ({ ...step, ticket }));
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

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === "function";
}
