// The ledger in PostgreSQL: one row per entry, written in batches off the call's path. `append`
// only queues; a batch is one INSERT (one transaction), so a reader sees every entry of it or
// none, never a torn one, and a process killed mid-batch loses only entries not yet committed:
// `written()` resolves once every entry appended so far is committed, which is what a `durable`
// guard's outcome (and the failure entries' durability rule) waits for. A batch that fails stays
// queued and is retried; the queue is bounded, and past its bound calls wait (backpressure).
import type { Sql } from "postgres";
import { entryJson } from "../../runtime/ledger/line.ts";
import type { LedgerEntry, LedgerSink } from "../../runtime/index.ts";

export interface PostgresLedgerOptions {
  /** Entries per INSERT. Default 500. */
  readonly batchSize?: number;
  /** Entries queued past which a guarded call's outcome waits for the sink. Default 10,000. */
  readonly maxQueue?: number;
  /** Longest entry kept whole, in UTF-16 units; a longer one is kept as a stub with its hash. Default 1,000,000. */
  readonly maxEntryChars?: number;
  /** Called when a batch cannot be written (it is retried); default: a warning on stderr. */
  readonly onError?: (error: Error) => void;
}

const RETRY_MS = 1_000;

interface Waiter {
  readonly upTo: number;
  readonly resolve: () => void;
}

export class PostgresLedgerSink implements LedgerSink {
  readonly #sql: Sql;
  readonly #batchSize: number;
  readonly #maxQueue: number;
  readonly #maxEntryChars: number;
  readonly #onError: (error: Error) => void;
  #queue: LedgerEntry[] = [];
  /** Entries appended so far, and committed so far (counted from the first append). */
  #appended = 0;
  #committed = 0;
  #draining: Promise<void> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #waiters: Waiter[] = [];
  #pressure: { promise: Promise<void>; resolve: () => void } | undefined;
  #lastError: Error | undefined;
  #closed = false;

  constructor(sql: Sql, options: PostgresLedgerOptions = {}) {
    this.#sql = sql;
    this.#batchSize = options.batchSize ?? 500;
    this.#maxQueue = options.maxQueue ?? 10_000;
    this.#maxEntryChars = options.maxEntryChars ?? 1_000_000;
    this.#onError = options.onError ?? ((error) => console.warn(`toolguard: the PostgreSQL ledger could not write a batch (retrying): ${error.message}`));
  }

  append(entry: LedgerEntry): void {
    if (this.#closed) throw new Error("toolguard: the PostgreSQL ledger is closed");
    this.#queue.push(entry);
    this.#appended++;
    if (this.#draining === undefined && this.#retry === undefined) this.#draining = this.#drain();
  }

  backpressure(): Promise<void> | undefined {
    if (this.#queue.length <= this.#maxQueue) return undefined;
    if (this.#pressure === undefined) {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#pressure = { promise, resolve };
    }
    return this.#pressure.promise;
  }

  /** Resolves once every entry appended so far is committed. */
  written(): Promise<void> {
    const upTo = this.#appended;
    if (this.#committed >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ upTo, resolve }));
  }

  /** Whether the last batch could be written (fail-closed guards run only while it could). */
  writable(): boolean {
    return this.#lastError === undefined;
  }

  /** Resolves once every entry appended so far is committed; rejects while the database refuses them. */
  async flush(): Promise<void> {
    if (this.#committed >= this.#appended) return;
    if (this.#retry !== undefined) {
      clearTimeout(this.#retry);
      this.#retry = undefined;
      this.#draining ??= this.#drain();
    }
    await this.#draining;
    if (this.#committed < this.#appended)
      throw new Error(
        `toolguard: ${this.#appended - this.#committed} ledger entries are not written to PostgreSQL yet: ${this.#lastError?.message ?? "still queued"}`,
      );
  }

  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  async #drain(): Promise<void> {
    // Appends made in the same tick join the first batch.
    await Promise.resolve();
    while (this.#queue.length > 0) {
      const batch = this.#queue.slice(0, this.#batchSize);
      const texts = batch.map((entry) => entryJson(entry, this.#maxEntryChars));
      try {
        await this.#sql`
          INSERT INTO toolguard_ledger (chain, tool, entry)
          SELECT * FROM unnest(${batch.map((entry) => entry.chain)}::text[], ${batch.map((entry) => entry.tool)}::text[], ${texts}::text[])`;
      } catch (error) {
        this.#lastError = error instanceof Error ? error : new Error(String(error));
        this.#onError(this.#lastError);
        this.#draining = undefined;
        this.#retry = setTimeout(() => {
          this.#retry = undefined;
          this.#draining ??= this.#drain();
        }, RETRY_MS);
        this.#retry.unref?.();
        return;
      }
      this.#lastError = undefined;
      this.#queue = this.#queue.slice(batch.length);
      this.#committed += batch.length;
      this.#wake();
    }
    this.#draining = undefined;
  }

  #wake(): void {
    if (this.#waiters.length > 0) {
      const still: Waiter[] = [];
      for (const waiter of this.#waiters) (waiter.upTo <= this.#committed ? waiter.resolve : () => still.push(waiter))();
      this.#waiters = still;
    }
    if (this.#pressure !== undefined && this.#queue.length <= this.#maxQueue) {
      this.#pressure.resolve();
      this.#pressure = undefined;
    }
  }
}
