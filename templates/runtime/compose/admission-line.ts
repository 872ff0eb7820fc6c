// Validation order kept across reference resolution. `serializeBy` keys a write by its resolved
// arguments (the customer a resolver found, not the words the model used), so a call's key is
// known only once its references are resolved, and resolvers finish in any order. Each call takes
// a place in this line as its arguments pass validation; it enters its key's write queue only
// when every call validated before it has entered its own (or left the line), so two writes
// that resolve to the same key still queue in the order they passed validation.
// The price: a call whose resolver is slow holds back the queue entry (not the write) of every
// call of the same tool validated after it, whatever their keys, until it resolves or its
// resolver times out (`resolverTimeoutMs`).

/** A place in the line, taken when the call's arguments passed validation. */
export interface LinePlace {
  /** Settles when every earlier place has been released. Never rejects. */
  readonly turn: Promise<void>;
  /** Leaves the line (after entering the key's queue, or on any other end); idempotent. */
  release(): void;
}

export class AdmissionLine {
  #tail: Promise<void> = Promise.resolve();

  /** Takes the next place, synchronously. */
  take(): LinePlace {
    const previous = this.#tail;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // As in the write queue: a place released early (its resolution failed) must not let a later
    // call pass one still resolving before it.
    this.#tail = previous.then(() => released);
    let done = false;
    return {
      turn: previous,
      release: () => {
        if (done) return;
        done = true;
        release();
      },
    };
  }
}
