// The JSONL sink's queue of entries not yet serialised: an array read from a moving head, so
// taking a slice off the front costs nothing per entry beyond the read (`Array#shift` would move
// the rest each time), compacted once the head has passed half of it.
import type { LedgerEntry } from "./ledger.ts";

export class EntryQueue {
  #entries: (LedgerEntry | undefined)[] = [];
  /** The first entry still queued. */
  #head = 0;
  /** The most entries ever queued at once. */
  peak = 0;

  get length(): number {
    return this.#entries.length - this.#head;
  }

  push(entry: LedgerEntry): void {
    const queued = this.#entries.push(entry) - this.#head;
    if (queued > this.peak) this.peak = queued;
  }

  /** The first entry, taken off the queue (and let go of, so it can be collected); undefined when empty. */
  take(): LedgerEntry | undefined {
    if (this.#head === this.#entries.length) return undefined;
    const entry = this.#entries[this.#head];
    this.#entries[this.#head++] = undefined;
    return entry;
  }

  /** After a slice was taken: the array starts again when emptied, and drops its taken prefix once that is most of it. */
  compact(): void {
    if (this.#head === this.#entries.length) {
      this.#entries = [];
      this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Every entry still queued, in order, left queued: for writing them all at once (`flushSync`), which then `clear`s. */
  rest(): readonly LedgerEntry[] {
    return this.#entries.slice(this.#head) as LedgerEntry[];
  }

  clear(): void {
    this.#entries = [];
    this.#head = 0;
  }
}
