// Who waits on the JSONL sink: durable calls waiting for their entry to be written, and calls held
// back while the queue is over its bound.

interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Promises that resolve once the sink has written a given number of entries. */
export class WriteWaiters {
  #waiters: Waiter[] = [];

  /** Resolves once `written` reaches `target` (see `settle`); rejects on the next failed write. */
  wait(target: number): Promise<void> {
    return new Promise((resolve, reject) => this.#waiters.push({ target, resolve, reject }));
  }

  /** The sink has written `written` entries in all. */
  settle(written: number): void {
    if (this.#waiters.length === 0) return;
    const still = [];
    for (const waiter of this.#waiters) {
      if (written >= waiter.target) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }

  /** A write failed: every waiter is told (the entries stay queued and are retried). */
  reject(error: Error): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}

/**
 * One promise shared by every call held back, resolved when the sink has room again. At most
 * `maxWaiting` calls are handed it per hold: a caller past that bound is not held (its outcome
 * goes back at once, and its entry is queued, or dropped and counted past the drop bound), so
 * neither the waiting calls nor what they keep alive grow without limit.
 */
export class PressureLatch {
  readonly #maxWaiting: number;
  #held: { readonly promise: Promise<void>; readonly resolve: () => void } | undefined;
  /** Calls handed the current promise. */
  #waiting = 0;
  /** The most calls ever held at once. */
  peakWaiting = 0;
  /** Calls not held because `maxWaiting` were waiting already. */
  passedBound = 0;

  constructor(maxWaiting: number) {
    this.#maxWaiting = maxWaiting;
  }

  /** The shared promise: the one already held, or a new one when `full`; undefined otherwise, and past the bound. */
  hold(full: boolean): Promise<void> | undefined {
    if (this.#held === undefined) {
      if (!full) return undefined;
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#held = { promise, resolve };
    } else if (this.#waiting >= this.#maxWaiting) {
      this.passedBound++;
      return undefined;
    }
    if (++this.#waiting > this.peakWaiting) this.peakWaiting = this.#waiting;
    return this.#held.promise;
  }

  release(): void {
    this.#held?.resolve();
    this.#held = undefined;
    this.#waiting = 0;
  }

  get held(): boolean {
    return this.#held !== undefined;
  }
}
