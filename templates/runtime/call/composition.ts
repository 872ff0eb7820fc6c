// The layers a validated call may pass through on its way to the implementation (compose/): the
// write queue (`serializeBy`) and the idempotency gate (`idempotency`). Each is absent unless the
// options ask for it, so the guard's valid path pays one check for both.
import type { GuardOptions } from "../contract/api.ts";
import type { GuardLogger } from "../contract/guard-logger.ts";
import { idempotencyAlarm } from "../telemetry/alarm.ts";
import { markDependencyFailure } from "../compose/failure-kinds.ts";
import { IdempotencyGate, type GateResult } from "../compose/idempotency-gate.ts";
import { WriteQueue, type QueueTicket } from "../compose/write-queue.ts";
import type { Snapshot } from "./ok-result.ts";

export class Composition<Args> {
  readonly #gate: IdempotencyGate | undefined;
  readonly #keyOf: ((args: never) => string) | undefined;
  readonly #serializeBy: ((args: unknown) => string | undefined) | undefined;
  readonly #queue: WriteQueue | undefined;
  readonly #logger: GuardLogger | undefined;

  /** The layers `options` ask for, or `undefined` when they ask for none. */
  static of<Args>(tool: string, options: GuardOptions<never, Args>): Composition<Args> | undefined {
    return options.idempotency || options.serializeBy ? new Composition<Args>(tool, options) : undefined;
  }

  private constructor(tool: string, options: GuardOptions<never, Args>) {
    this.#gate = options.idempotency ? new IdempotencyGate(options.idempotency.store) : undefined;
    this.#keyOf = options.idempotency?.keyOf as ((args: never) => string) | undefined;
    this.#serializeBy = options.serializeBy as ((args: unknown) => string | undefined) | undefined;
    this.#queue = this.#serializeBy ? new WriteQueue(tool, options.serializeTimeoutMs) : undefined;
    this.#logger = options.logger;
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
   * with its ticket once the writes before it have run. The call's place in validation order is
   * taken now; it enters its key's queue as soon as its key is known (at once without
   * references), and waits only for that key's writes. What `serializeBy` throws, and a wait
   * past `serializeTimeoutMs`, are the implementation's failure: `failed` records it, then it is
   * thrown, marked.
   */
  ordered<Step extends object>(
    resolve: () => Step | Promise<Step>,
    resolves: boolean,
    reaches: (step: Step) => step is Step & { readonly value: unknown },
    failed: () => void,
  ): Step | Promise<Step> {
    const seq = (this.#queue as WriteQueue).take();
    if (!resolves) {
      const step = resolve();
      return isPromise(step) || !reaches(step) ? step : this.#queued(step, this.#enter(step.value, seq, failed), failed);
    }
    return Promise.resolve(resolve()).then((step) => (reaches(step) ? this.#queued(step, this.#enter(step.value, seq, failed), failed) : step));
  }

  #enter(value: unknown, seq: number, failed: () => void): QueueTicket | undefined {
    try {
      const key = (this.#serializeBy as (args: unknown) => string | undefined)(value);
      return key === undefined ? undefined : (this.#queue as WriteQueue).enter(key, seq);
    } catch (error) {
      failed();
      throw markDependencyFailure(error, "implementation");
    }
  }

  /** The step once its ticket's turn has come, carrying the ticket to the implementation. */
  #queued<Step extends object>(step: Step, ticket: QueueTicket | undefined, failed: () => void): Step | Promise<Step> {
    if (ticket === undefined) return step;
    return ticket.ready.then(
      () => ({ ...step, ticket }),
      (error: unknown) => {
        failed();
        throw markDependencyFailure(error, "implementation");
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
    const key = snapshot.key();
    const fingerprint = snapshot.fingerprint();
    return (this.#gate as IdempotencyGate).run(tool, key, fingerprint, execute).then((result) => {
      if (result.kind === "conflict") idempotencyAlarm({ tool, idempotencyKey: key, fingerprint, storedFingerprint: result.fingerprint }, this.#logger);
      return result;
    });
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === "function";
}
