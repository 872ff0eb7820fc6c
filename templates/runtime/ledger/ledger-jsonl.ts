// The default ledger: an append-only JSON Lines file, one chain state per line (format and the
// durability contract: docs/ledger.md).
//
// - `append` only queues a reference. The queue is bounded (`maxQueue`): past it, a guarded call
//   waits for the sink to catch up (`overflow: "wait"`, the default) or the entry is dropped and
//   counted (`"drop"`). It never grows without limit.
// - Entries are serialised in slices (at most 512 entries, 1 MiB or 4 ms of work each), each
//   written with one `write` on a handle opened with O_APPEND and synced, and the event loop runs
//   between slices: a backlog never stalls the calls.
// - Lines never interleave: a slice is one write, so another process's lines land before or
//   after it. Before each write the file is checked: if its last byte is not a newline (a writer
//   died mid-line, or our own write was cut short by a full disk), the slice starts with one.
// - Nothing is lost silently: a slice that cannot be written stays queued and is retried (on the
//   next append, on `flush()`, and once a second); failures and drops raise a process warning,
//   call `onError`, and make `flush()` reject with the count.
// - Rotation: past `maxFileBytes`, the file is renamed to `<path>.1` (older ones shift up to
//   `maxFiles`) and a new one started.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { mkdir, open, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { LedgerEntry, LedgerSink } from "./ledger.ts";
import { entryLine } from "./line.ts";

export interface JsonlFileSinkOptions {
  /** The ledger file. Default `.toolguard/ledger.jsonl` under the working directory. */
  readonly path?: string;
  /** Called with every write failure and every drop, besides the process warning. */
  readonly onError?: (error: Error) => void;
  /** Sync each slice to disk (`fdatasync`) before counting it written. Default true. */
  readonly sync?: boolean;
  /** Entries queued before the overflow policy applies. Default 4,096 (eight slices): more only keeps more objects alive for the garbage collector to copy. */
  readonly maxQueue?: number;
  /**
   * Past `maxQueue`: `"wait"` (default) delays guarded calls' outcomes until the sink has taken
   * the next slice, dropping only past twice the bound; `"drop"` drops new entries and counts them.
   */
  readonly overflow?: "wait" | "drop";
  /** Size at which the file is rotated to `<path>.1`. Default 64 MiB; `Infinity` never rotates. */
  readonly maxFileBytes?: number;
  /** Rotated files kept (`<path>.1` ... `<path>.N`). Default 2. */
  readonly maxFiles?: number;
  /** Longest line written; a longer entry is written as a stub with its length and hash. Default 1 MiB. */
  readonly maxEntryBytes?: number;
  /** Permissions of a ledger file the sink creates. Default 0o600 (owner only). */
  readonly mode?: number;
}

export const DEFAULT_LEDGER_PATH: string = ".toolguard/ledger.jsonl";

/** Counters of a sink since it was created. */
export interface LedgerSinkStats {
  readonly appended: number;
  readonly written: number;
  /** Entries refused because the queue was full. */
  readonly dropped: number;
  /** Entries waiting: queued, being written, or waiting for a retry. */
  readonly pending: number;
  /** Writes that failed (each retried). */
  readonly failedWrites: number;
  readonly rotations: number;
  /** The most entries ever queued at once. */
  readonly peakQueued: number;
}

const SLICE_ENTRIES = 512;
const SLICE_CHARS = 1 << 20;
const SLICE_MS = 4;
const RETRY_MS = 1000;

interface Slice {
  readonly text: string;
  readonly count: number;
}

interface OpenFile {
  readonly handle: FileHandle;
  readonly ino: number;
}

export class JsonlFileSink implements LedgerSink {
  readonly path: string;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #sync: boolean;
  readonly #maxQueue: number;
  readonly #overflow: "wait" | "drop";
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #maxEntryBytes: number;
  readonly #mode: number;

  /** Entries not yet serialised; `#head` is the first one still queued. */
  #queue: LedgerEntry[] = [];
  #head = 0;
  /** Serialised, not yet confirmed written: the slice in flight, or one waiting for a retry. */
  #slice: Slice | undefined;
  #draining: Promise<void> | undefined;
  #file: OpenFile | undefined;
  /** The last write failed; cleared by the next one that succeeds. */
  #failing = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  #appended = 0;
  #written = 0;
  #dropped = 0;
  #failedWrites = 0;
  #rotations = 0;
  #peakQueued = 0;
  /** Failures and drops not yet reported by `flush()`. */
  #failures: Error[] = [];
  #droppedUnreported = 0;
  #waiters: { readonly target: number; readonly resolve: () => void; readonly reject: (error: Error) => void }[] = [];
  #pressure: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: JsonlFileSinkOptions = {}) {
    this.path = resolve(options.path ?? DEFAULT_LEDGER_PATH);
    this.#onError = options.onError;
    this.#sync = options.sync ?? true;
    this.#maxQueue = positive("maxQueue", options.maxQueue ?? 4096);
    this.#overflow = options.overflow ?? "wait";
    this.#maxFileBytes = positive("maxFileBytes", options.maxFileBytes ?? 64 * 1024 * 1024);
    this.#maxFiles = Math.max(0, Math.floor(options.maxFiles ?? 2));
    this.#maxEntryBytes = positive("maxEntryBytes", options.maxEntryBytes ?? 1024 * 1024);
    this.#mode = options.mode ?? 0o600;
  }

  get #queued(): number {
    return this.#queue.length - this.#head;
  }

  append(entry: LedgerEntry): void {
    if (this.#closed) {
      this.#drop(1, "the sink is closed");
      return;
    }
    const limit = this.#overflow === "wait" ? 2 * this.#maxQueue : this.#maxQueue;
    if (this.#queued >= limit) {
      this.#drop(1, `the queue holds ${this.#queued} entries (maxQueue ${this.#maxQueue}, overflow "${this.#overflow}")`);
      return;
    }
    this.#appended++;
    this.#queue.push(entry);
    if (this.#queued > this.#peakQueued) this.#peakQueued = this.#queued;
    this.#draining ??= this.#drain();
  }

  backpressure(): Promise<void> | undefined {
    if (this.#overflow !== "wait") return undefined;
    if (this.#pressure) return this.#pressure.promise;
    if (this.#queued < this.#maxQueue) return undefined;
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    this.#pressure = { promise, resolve };
    return promise;
  }

  written(): Promise<void> {
    const target = this.#appended;
    if (this.#written >= target) return Promise.resolve();
    this.#draining ??= this.#drain();
    return new Promise((resolve, reject) => this.#waiters.push({ target, resolve, reject }));
  }

  writable(): boolean | Promise<boolean> {
    if (this.#closed || this.#failing) return false;
    if (this.#file) return true;
    return this.#openFile().then(
      () => true,
      (error: unknown) => {
        this.#failing = true;
        this.#report(error, this.#queued, "the ledger cannot be opened");
        return false;
      },
    );
  }

  stats(): LedgerSinkStats {
    return {
      appended: this.#appended,
      written: this.#written,
      dropped: this.#dropped,
      pending: this.#queued + (this.#slice?.count ?? 0),
      failedWrites: this.#failedWrites,
      rotations: this.#rotations,
      peakQueued: this.#peakQueued,
    };
  }

  /**
   * Resolves once every entry appended so far is written; rejects if any write failed (the
   * entries stay queued and are retried) or entries were dropped since the last `flush()`.
   */
  async flush(): Promise<void> {
    while (this.#queued > 0 || this.#slice) {
      const draining = (this.#draining ??= this.#drain());
      await draining;
      if (this.#failing) break; // reported below; the entries stay queued for a retry
    }
    const failures = this.#failures;
    const dropped = this.#droppedUnreported;
    const pending = this.#queued + (this.#slice?.count ?? 0);
    this.#failures = [];
    this.#droppedUnreported = 0;
    // Failures since recovered lost nothing (they were warned about when they happened).
    if (pending === 0 && dropped === 0) return;
    const parts = [
      ...(pending > 0 ? [`${pending} ${plural(pending, "entry", "entries")} not yet written (kept, retried)`] : []),
      ...(dropped > 0 ? [`${dropped} ${plural(dropped, "entry", "entries")} dropped`] : []),
    ];
    const summary = `toolguard ledger ${this.path}: ${parts.join("; ")}`;
    throw failures.length === 1 && dropped === 0 && pending > 0 ? failures[0] : new AggregateError(failures, summary);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      if (this.#retryTimer) clearTimeout(this.#retryTimer);
      const file = this.#file;
      this.#file = undefined;
      await file?.handle.close().catch(() => undefined);
    }
  }

  /**
   * Writes everything not yet confirmed written, synchronously: for `process.on("exit")` and
   * signal handlers, where nothing asynchronous runs any more. An entry whose asynchronous write
   * was in flight may then appear twice; readers keep the last entry per chain.
   */
  flushSync(): void {
    let text = this.#slice?.text ?? "";
    let count = this.#slice?.count ?? 0;
    for (let index = this.#head; index < this.#queue.length; index++) {
      text += this.#line(this.#queue[index] as LedgerEntry);
      count++;
    }
    if (count === 0) return;
    let fd: number | undefined;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      fd = openSync(this.path, "a", this.#mode);
      writeSync(fd, `\n${text}`); // a fresh line: an interrupted asynchronous write may have left half of one
      this.#written += count;
      this.#slice = undefined;
      this.#queue = [];
      this.#head = 0;
    } catch (error) {
      this.#report(error, count, "could not be written at exit");
    } finally {
      if (fd !== undefined) closeSync(fd);
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
          await this.#write(slice.text);
        } catch (error) {
          if (this.#slice !== slice) return; // flushSync wrote it meanwhile
          this.#failedWrites++;
          this.#failing = true;
          this.#report(error, slice.count + this.#queued, "could not be written (kept, retried)");
          this.#rejectWaiters(error);
          this.#scheduleRetry();
          return;
        }
        this.#failing = false;
        // flushSync (at exit) may have written and counted this slice while the write was in flight.
        if (this.#slice !== slice) continue;
        this.#written += slice.count;
        this.#slice = undefined;
        this.#settleWaiters();
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /** Takes the next slice off the queue: bounded in entries, characters and time. */
  #serialise(): Slice {
    const started = performance.now();
    let text = "";
    let count = 0;
    const queue = this.#queue;
    while (this.#head < queue.length && count < SLICE_ENTRIES && text.length < SLICE_CHARS) {
      const entry = queue[this.#head] as LedgerEntry;
      queue[this.#head] = undefined as unknown as LedgerEntry; // let it be collected
      this.#head++;
      text += this.#line(entry);
      count++;
      if ((count & 31) === 0 && performance.now() - started > SLICE_MS) break;
    }
    if (this.#head === queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
    this.#releasePressure();
    return { text, count };
  }

  #line(entry: LedgerEntry): string {
    try {
      return entryLine(entry, this.#maxEntryBytes);
    } catch (error) {
      // An entry that cannot be serialised (a sink user's own object with a cycle): written as
      // a stub that says so, rather than blocking the slice.
      return `${JSON.stringify({ v: 1, tool: String(entry.tool), turn: String(entry.turn), unserialisable: String(error) })}\n`;
    }
  }

  /** One write of whole lines at the end of the file, on a fresh line. */
  async #write(text: string): Promise<void> {
    // The path, not the handle: another process may have rotated the file away, or it was removed.
    let current = await stat(this.path).catch(() => undefined);
    if (this.#file && current?.ino !== this.#file.ino) {
      const stale = this.#file;
      this.#file = undefined;
      await stale.handle.close().catch(() => undefined);
    }
    let file = this.#file ?? (await this.#openFile());
    if (current?.ino !== file.ino) current = await file.handle.stat();
    const bytes = Buffer.byteLength(text, "utf8");
    if (current.size > 0 && current.size + bytes > this.#maxFileBytes) {
      // Rotated before the write, so a file never grows past the cap by more than one slice.
      await this.#rotate();
      file = await this.#openFile();
      current = await file.handle.stat();
    }
    let prefix = "";
    if (current.size > 0) {
      const { buffer, bytesRead } = await file.handle.read(Buffer.alloc(1), 0, 1, current.size - 1);
      if (bytesRead === 1 && buffer[0] !== 0x0a) prefix = "\n";
    }
    const data = Buffer.from(prefix + text, "utf8");
    const { bytesWritten } = await file.handle.write(data, 0, data.length);
    if (bytesWritten < data.length) {
      // Cut short (a full disk): the part written is a torn line readers skip; the whole slice is retried.
      throw Object.assign(new Error(`short write: ${bytesWritten} of ${data.length} bytes`), { code: "ENOSPC" });
    }
    if (this.#sync) await file.handle.datasync();
  }

  #opening: Promise<OpenFile> | undefined;

  /** Opens (creating with `mode`) the file for appending; one open at a time. */
  #openFile(): Promise<OpenFile> {
    if (this.#file) return Promise.resolve(this.#file);
    return (this.#opening ??= (async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true });
        const handle = await open(this.path, "a+", this.#mode); // a+: the last byte is read back
        try {
          const { ino } = await handle.stat();
          return (this.#file = { handle, ino });
        } catch (error) {
          await handle.close();
          throw error;
        }
      } finally {
        this.#opening = undefined;
      }
    })());
  }

  async #rotate(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    await file?.handle.close().catch(() => undefined);
    if (this.#maxFiles === 0) await rm(this.path, { force: true });
    else {
      for (let index = this.#maxFiles - 1; index >= 1; index--) await rename(`${this.path}.${index}`, `${this.path}.${index + 1}`).catch(() => undefined);
      await rename(this.path, `${this.path}.1`);
    }
    this.#rotations++;
  }

  #scheduleRetry(): void {
    if (this.#retryTimer || this.#closed) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      // Reopen: the path may name somewhere writable now.
      const stale = this.#file;
      this.#file = undefined;
      void stale?.handle.close().catch(() => undefined);
      this.#draining ??= this.#drain();
    }, RETRY_MS);
    this.#retryTimer.unref();
  }

  #settleWaiters(): void {
    if (this.#waiters.length === 0) return;
    const still = [];
    for (const waiter of this.#waiters) {
      if (this.#written >= waiter.target) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }

  #rejectWaiters(cause: unknown): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    const error = new Error(`toolguard ledger: the entry could not be written to ${this.path}: ${messageOf(cause)}`, { cause });
    for (const waiter of waiters) waiter.reject(error);
  }

  #releasePressure(): void {
    // Released as soon as one slice's worth of room is free, not at half: callers woken together
    // then fill only that room before waiting again, so a wake-up is a short burst, not a stall.
    if (this.#pressure && this.#queued <= Math.max(0, this.#maxQueue - SLICE_ENTRIES)) {
      this.#pressure.resolve();
      this.#pressure = undefined;
    }
  }

  #drop(count: number, reason: string): void {
    this.#dropped += count;
    const first = this.#droppedUnreported === 0;
    this.#droppedUnreported += count;
    // Warn once per run of drops (each flush() reports the total), not once per entry.
    if (first) this.#report(new Error(reason), count, "dropped");
  }

  #report(cause: unknown, count: number, what: string): void {
    const error = new Error(`toolguard ledger: ${count} ${plural(count, "entry", "entries")} ${what}: ${this.path}: ${messageOf(cause)}`, { cause });
    if (what !== "dropped") this.#failures.push(error);
    process.emitWarning(error.message, { type: "ToolguardLedgerWarning" });
    this.#onError?.(error);
  }
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`toolguard: JsonlFileSink option ${name} must be a positive number, got ${String(value)}`);
  return value;
}

export { readLedger, scanLedger, type LedgerScan } from "./read.ts";

let shared: JsonlFileSink | undefined;

/**
 * The process-wide default sink, created on first use: what a guard without a `ledger` option
 * writes to. Flushed before the process exits normally (`beforeExit`) and written synchronously
 * on `process.exit()` (`exit`); for signals, see `flushLedgerOnSignals`.
 */
export function defaultLedger(): JsonlFileSink {
  if (shared === undefined) {
    const sink = new JsonlFileSink();
    shared = sink;
    process.once("beforeExit", () => {
      sink.flush().catch(() => undefined); // failures were already reported as warnings
    });
    process.once("exit", () => sink.flushSync());
  }
  return shared;
}
