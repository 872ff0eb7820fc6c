// The default ledger: an append-only JSON Lines file, one chain state per line (format, write
// path, files and durability contract: docs/ledger.md).
// - `append` only queues a reference; the queue is bounded (`maxQueue`, then `overflow`).
//   `appendNow` (a failure's entry, from `check()`) writes through before it returns.
// - Entries are serialised in slices (at most 4,096 entries, 1 MiB or 4 ms of work each) into one
//   reused buffer, each slice one `write` (append-file.ts); the event loop runs between. A slice
//   takes what is queued, so under load the write is paid per burst. When the lines are synced
//   to disk depends on what they hold (slice-sync.ts).
// - Nothing is lost silently (sink-reports.ts): a slice that cannot be written stays queued and is
//   retried (next append, `flush()`, once a second); drops and files rotated away are counted.
import { resolve } from "node:path";
import type { LedgerEntry, LedgerSink } from "./ledger.ts";
import { AppendFile } from "./append-file.ts";
import { EntryQueue } from "./entry-queue.ts";
import { DEFAULT_LEDGER_PATH, messageOf, positive, type JsonlFileSinkOptions, type LedgerSinkStats } from "./jsonl-options.ts";
import { writeLine } from "./line.ts";
import { LineWriter } from "./line-writer.ts";
import { SinkReports } from "./sink-reports.ts";
import { PressureLatch, WriteWaiters } from "./sink-waiters.ts";
import { SliceSync, syncSetting } from "./slice-sync.ts";

export { DEFAULT_LEDGER_PATH, type JsonlFileSinkOptions, type LedgerSinkStats };

const SLICE_ENTRIES = 4096; // the default maxQueue: one slice can take a full queue
const SLICE_BYTES = 1 << 20;
const SLICE_MS = 4;
const RETRY_MS = 1000;

/** A slice's lines as UTF-8 (`data`: a view of `#bytes`, reused once the slice is written). */
type Slice = { readonly data: Uint8Array; readonly count: number };

export class JsonlFileSink implements LedgerSink {
  readonly path: string;
  readonly #maxQueue: number;
  readonly #overflow: "wait" | "drop";
  readonly #maxEntryBytes: number;
  /** Entries queued past which `append` drops. */
  readonly #limit: number;
  /** Entries not yet serialised. */
  readonly #queue = new EntryQueue();
  /** Serialised, not yet confirmed written: the slice in flight, or one waiting for a retry. */
  #slice: Slice | undefined;
  #draining: Promise<void> | undefined;
  readonly #bytes = new LineWriter(SLICE_BYTES);
  /** `appendNow`'s line: its own buffer, since the slice's may be in flight. */
  readonly #nowBytes = new LineWriter(64 * 1024);
  readonly #file: AppendFile;
  /** The last write failed; cleared by the next one that succeeds. */
  #failing = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** Entries taken into the queue, and those of them written (what `written()` waits on). */
  #appended = 0;
  #written = 0;
  /** Entries written through by `appendNow`, outside the queue. */
  #writtenNow = 0;
  readonly #writeThrough: boolean;
  #failedWrites = 0;
  readonly #reports: SinkReports;
  readonly #waiters = new WriteWaiters();
  readonly #pressure: PressureLatch;
  readonly #syncs: SliceSync;

  constructor(options: JsonlFileSinkOptions = {}) {
    this.path = resolve(options.path ?? DEFAULT_LEDGER_PATH);
    this.#reports = new SinkReports(this.path, options.onError);
    this.#maxQueue = positive("maxQueue", options.maxQueue ?? 4096);
    this.#overflow = options.overflow ?? "wait";
    this.#writeThrough = (options.failures ?? "write-through") === "write-through";
    this.#maxEntryBytes = positive("maxEntryBytes", options.maxEntryBytes ?? 1024 * 1024);
    // "wait" holds callers at maxQueue (backpressure) and drops only past twice that.
    this.#limit = this.#overflow === "wait" ? 2 * this.#maxQueue : this.#maxQueue;
    this.#pressure = new PressureLatch(positive("maxWaiting", options.maxWaiting ?? this.#maxQueue));
    const maxFileBytes = positive("maxFileBytes", options.maxFileBytes ?? 64 * 1024 * 1024);
    const [maxFiles, maxAgeMs] = [Math.max(0, Math.floor(options.maxFiles ?? 2)), positive("maxAgeMs", options.maxAgeMs ?? Infinity)];
    const sync = syncSetting(options.sync, options.syncIntervalMs);
    this.#file = new AppendFile(this.path, options.mode ?? 0o600, maxFileBytes, maxFiles, sync.sync !== false, maxAgeMs);
    this.#syncs = new SliceSync(this.#file, sync, (error, count) => this.#reports.failed(error, count, "written but not synced to disk"));
  }

  append(entry: LedgerEntry): void {
    // On every call's path: one read of the queue's length, no getter.
    const queued = this.#queue.length;
    if (this.#closed || queued >= this.#limit) {
      this.#reports.drop(
        1,
        this.#closed ? "the sink is closed" : `the queue holds ${queued} entries (maxQueue ${this.#maxQueue}, overflow "${this.#overflow}")`,
      );
      return;
    }
    this.#appended++;
    this.#queue.push(entry);
    if (this.#draining === undefined) this.#draining = this.#drain();
  }

  /**
   * A failure's entry: written (and synced, unless `sync: false`) before this returns, so that no
   * crash loses it once the call's envelope is out. An entry that cannot be written now (a full
   * disk) is queued, kept and retried like any other, and the failure reported.
   */
  appendNow(entry: LedgerEntry): void {
    if (this.#writeThrough && !this.#closed) {
      try {
        const out = this.#nowBytes;
        out.reset();
        writeLine(out, entry, this.#maxEntryBytes);
        this.#file.writeNow(out.bytes());
        this.#writtenNow++;
        return;
      } catch (error) {
        this.#failedWrites++;
        this.#reports.failed(error, 1, "could not be written through (queued, retried)");
      }
    }
    // Queued (`failures: "batched"`, or a write-through that failed): its slice is synced before it counts.
    this.append(entry);
    this.#syncs.ask(this.#appended);
  }

  /** Durable mode's bound: room for one more call waiting for its entry (`maxWaiting`); a call past it is refused (settle.ts). */
  durableRoom(): boolean {
    return this.#pressure.room(this.#waiters.calls);
  }

  backpressure(): Promise<void> | undefined {
    return this.#overflow === "wait" ? this.#pressure.hold(this.#queue.length >= this.#maxQueue) : undefined;
  }

  /** Resolves once every entry appended so far is written and synced (durable calls, a failure's outcome in `call`). */
  written(): Promise<void> {
    const target = this.#appended;
    if (this.#written >= target) return this.#file.dirty ? this.#syncs.flush() : Promise.resolve();
    this.#syncs.ask(target);
    this.#draining ??= this.#drain();
    return this.#waiters.wait(target);
  }

  writable(): boolean | Promise<boolean> {
    if (this.#closed || this.#failing) return false;
    if (this.#file.isOpen) return true;
    return this.#file.open().then(
      () => true,
      (error: unknown) => {
        this.#failing = true;
        this.#reports.failed(error, this.#queue.length, "the ledger cannot be opened");
        return false;
      },
    );
  }

  stats(): LedgerSinkStats {
    return {
      appended: this.#appended + this.#writtenNow,
      written: this.#written + this.#writtenNow,
      dropped: this.#reports.dropped,
      pending: this.#queue.length + (this.#slice?.count ?? 0),
      failedWrites: this.#failedWrites,
      rotations: this.#file.rotations,
      rotatedAway: this.#file.rotatedAway,
      peakQueued: this.#queue.peak,
      peakWaiting: this.#pressure.peakWaiting,
      notHeld: this.#pressure.passedBound,
    };
  }

  /**
   * Resolves, with the counters, once every entry appended so far is written and synced (unless `sync: false`). Never
   * rejects for drops (counted, warned about, in telemetry); only while entries wait on failing writes (kept, retried):
   * the error says how many, with `stats`; or when the disk refuses to sync what was written (reported first).
   */
  async flush(): Promise<LedgerSinkStats> {
    await this.drained();
    await this.#syncs.flush();
    return this.stats();
  }

  /**
   * `flush()` without its sync: resolves once every entry appended so far is in the file (read by any reader, kept
   * through a process crash), synced only as the sink syncs in its own course. Rejects as `flush` does.
   */
  async drained(): Promise<LedgerSinkStats> {
    while (this.#queue.length > 0 || this.#slice) {
      const draining = (this.#draining ??= this.#drain());
      await draining;
      if (this.#failing) break; // reported below; the entries stay queued for a retry
    }
    const pending = this.#queue.length + (this.#slice?.count ?? 0);
    if (pending > 0) throw this.#reports.pendingError(pending, this.stats());
    // Failures since recovered lost nothing (they were warned about when they happened).
    this.#reports.takeFailures();
    return this.stats();
  }

  /** `flush()`, then releases the file (and the path, if owned): resolves with the counters; rejects as `flush` does, the file released all the same. */
  async close(): Promise<LedgerSinkStats> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      if (this.#retryTimer) clearTimeout(this.#retryTimer);
      this.#syncs.stop();
      await this.#file.end();
    }
    return this.stats();
  }

  /** The file this sink appends to now: `path` while it owns the ledger, else one of its own beside it (docs/ledger.md). */
  get liveFile(): string {
    return this.#file.liveFile;
  }

  /**
   * Writes everything not yet confirmed written, synchronously: for `process.on("exit")` and signal handlers. An entry
   * whose slice was written but not yet synced may then appear twice; readers keep the last entry per chain.
   */
  flushSync(): void {
    const count = (this.#slice?.count ?? 0) + this.#queue.length;
    if (count === 0) return;
    // A writer of its own: the slice's buffer holds the slice in flight.
    const out = new LineWriter(0);
    for (const entry of this.#queue.rest()) writeLine(out, entry, this.#maxEntryBytes);
    try {
      this.#file.writeSync(this.#slice ? Buffer.concat([this.#slice.data, out.bytes()]) : out.bytes());
      this.#written += count;
      this.#slice = undefined;
      this.#queue.clear();
    } catch (error) {
      this.#reports.failed(error, count, "could not be written at exit");
    }
  }

  async #drain(): Promise<void> {
    try {
      // Nothing is serialised in the turn that appended: the call that started the drain has
      // returned by the time its entry is, and everything appended in this turn shares a slice.
      await new Promise((done) => setImmediate(done));
      for (;;) {
        const slice = (this.#slice ??= this.#serialise());
        if (slice.count === 0) {
          this.#slice = undefined;
          break;
        }
        try {
          await this.#syncs.write(slice.data, this.#written, slice.count);
        } catch (error) {
          if (this.#slice !== slice) return; // flushSync wrote it meanwhile
          this.#failedWrites++;
          this.#failing = true;
          this.#reports.failed(error, slice.count + this.#queue.length, "could not be written (kept, retried)");
          this.#waiters.reject(new Error(`toolguard ledger: the entry could not be written to ${this.path}: ${messageOf(error)}`, { cause: error }));
          this.#scheduleRetry();
          return;
        }
        this.#failing = false;
        // flushSync (at exit) may have written and counted this slice while the write was in flight.
        if (this.#slice !== slice) continue;
        this.#written += slice.count;
        this.#slice = undefined;
        this.#waiters.settle(this.#written);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /** Takes the next slice off the queue: bounded in entries, characters and time. */
  #serialise(): Slice {
    const started = performance.now();
    // Only called with no slice outstanding: the previous slice's bytes are written.
    const bytes = this.#bytes;
    bytes.reset();
    let count = 0;
    const queue = this.#queue;
    while (count < SLICE_ENTRIES && bytes.length < SLICE_BYTES) {
      const entry = queue.take();
      if (entry === undefined) break;
      writeLine(bytes, entry, this.#maxEntryBytes);
      count++;
      if ((count & 31) === 0 && performance.now() - started > SLICE_MS) break;
    }
    queue.compact();
    this.#pressure.releaseWithRoom(this.#queue.length, this.#maxQueue);
    return { data: bytes.bytes(), count };
  }

  #scheduleRetry(): void {
    if (this.#retryTimer || this.#closed) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      // Reopen: the path may name somewhere writable now.
      void this.#file.close().then(() => (this.#draining ??= this.#drain()));
    }, RETRY_MS);
    this.#retryTimer.unref();
  }
}

export { readLedger, scanLedger, type LedgerScan } from "./read.ts";
