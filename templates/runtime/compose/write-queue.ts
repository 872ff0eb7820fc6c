// Write ordering: calls that share a serialisation key run one at a time, in the order in which
// their arguments passed validation. A repaired write therefore queues behind writes that were
// valid before it, even if its first (invalid) emission came earlier: order follows validated
// intent. A write that fails leaves the queue like one that succeeds, so it blocks nobody.

/** A place in one key's queue, taken when the call's arguments passed validation. */
export interface QueueTicket {
  /** Settles when every earlier ticket of the same key has left. Never rejects. */
  readonly ready: Promise<void>;
  /** Leaves the queue (after the write, whatever its result); idempotent. */
  leave(): void;
}

export class WriteQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Takes the next place in `key`'s queue, synchronously. */
  enter(key: string): QueueTicket {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const left = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The next ticket waits for this one to leave AND for everyone before it: a ticket that
    // leaves early (its call failed before its write) must not let a later write overtake an
    // earlier one that is still running.
    const tail = previous.then(() => left);
    this.#tails.set(key, tail);
    let done = false;
    return {
      ready: previous,
      leave: () => {
        if (done) return;
        done = true;
        release();
        // The last in line empties its key once it is through, so the map holds only keys
        // with writes running or waiting.
        void tail.then(() => {
          if (this.#tails.get(key) === tail) this.#tails.delete(key);
        });
      },
    };
  }

  /** Keys with a write running or waiting. */
  get size(): number {
    return this.#tails.size;
  }
}
