// Who waits on the JSONL sink: durable calls waiting for their entry to be written, and calls held
// back while the queue is over its bound.

interface Waiter {
  readonly target: number;
  /** Calls waiting for this target. */
  calls: number;
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Promises that resolve once the sink has written a given number of entries. Targets only grow
 * (they are counts of entries appended), so the waiters form a queue in target order: a slice
 * written resolves a prefix of it, in time linear in what it resolves, and calls that wait for
 * the same target share one promise. Under overload (an open loop, durable outcomes, entries
 * dropped so the target stays put) the waiters are at most the distinct targets pending, not the
 * calls: a scan of every waiter per slice stalled the event loop for up to a second.
 */
export class WriteWaiters {
  #waiters: Waiter[] = [];
  /** The first waiter not yet resolved. */
  #head = 0;

  /** Calls waiting now (each `wait` not yet resolved or rejected): what durable mode's bound counts. */
  calls = 0;

  /** Waiters not yet resolved: distinct targets, not calls. */
  get pending(): number {
    return this.#waiters.length - this.#head;
  }

  /** Resolves once `written` reaches `target` (see `settle`); rejects on the next failed write. */
  wait(target: number): Promise<void> {
    this.calls++;
    const last = this.#waiters.at(-1);
    if (last !== undefined && this.#waiters.length > this.#head && last.target >= target) {
      last.calls++;
      return last.promise;
    }
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((done, fail) => {
      resolve = done;
      reject = fail;
    });
    this.#waiters.push({ target, calls: 1, promise, resolve, reject });
    return promise;
  }

  /** The sink has written `written` entries in all. */
  settle(written: number): void {
    const waiters = this.#waiters;
    let head = this.#head;
    while (head < waiters.length && (waiters[head] as Waiter).target <= written) {
      const waiter = waiters[head++] as Waiter;
      this.calls -= waiter.calls;
      waiter.resolve();
    }
    if (head === waiters.length) {
      this.#waiters = [];
      this.#head = 0;
    } else if (head > 1024 && head * 2 > waiters.length) {
      this.#waiters = waiters.slice(head);
      this.#head = 0;
    } else this.#head = head;
  }

  /** A write failed: every waiter is told (the entries stay queued and are retried). */
  reject(error: Error): void {
    const waiters = this.#waiters;
    const head = this.#head;
    this.#waiters = [];
    this.#head = 0;
    this.calls = 0;
    for (let index = head; index < waiters.length; index++) (waiters[index] as Waiter).reject(error);
  }
}

/**
 * One promise shared by every call held back, resolved when the sink has room again. At most
 * `maxWaiting` calls are handed it per hold: a caller past that bound is not held (its outcome
 * goes back at once, and its entry is queued, or dropped and counted past the drop bound), so
 * neither the waiting calls nor what they keep alive grow without limit.
 */
const RELEASE_ROOM = 512;

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

  /** Durable mode: whether one more call may wait for its entry while `waiting` do. */
  room(waiting: number): boolean {
    return waiting < this.#maxWaiting;
  }

  /**
   * Releases the held calls once `queued` leaves `RELEASE_ROOM` entries of room under `maxQueue`,
   * not at half: callers woken together then fill only that room before waiting again, so a
   * wake-up is a short burst, not a stall.
   */
  releaseWithRoom(queued: number, maxQueue: number): void {
    if (this.#held === undefined || queued > Math.max(0, maxQueue - RELEASE_ROOM)) return;
    this.#held.resolve();
    this.#held = undefined;
    this.#waiting = 0;
  }
}
