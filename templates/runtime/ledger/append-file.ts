// The JSONL sink's file: this writer's live file (the configured path when this writer owns the
// ledger, else a file of its own beside it: ledger-files.ts), opened for appending, rotated past
// its size or age limit, and written one slice at a time, each on a fresh line. No other process
// writes or rotates it, so a write never lands in a file another process is counting or removing:
// rotation is this writer's own rename, done synchronously between two of its writes, and the
// file renamed is closed, never written again. Retention of closed files (whoever wrote them)
// runs after a rotation, off the write path (rotation.ts). Before each write the live file's
// name is looked at all the same (one `stat`): something outside the ledger (a person, a log
// rotation tool) may have moved, removed or appended to it.
import { fdatasyncSync, fstatSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { closedFile, writerFile } from "./ledger-files.ts";
import { newWriterId, releaseOwnership, takeOwnership, writerEnded, writerOpened } from "./ledger-writers.ts";
import { closeQuietly, datasync, endsTorn, type LiveFile, outcomeOf, type SyncFailure } from "./live-file.ts";
import { firstStartedAt, removePastRetention } from "./rotation.ts";

const NEWLINE = Buffer.from("\n");
/** How often, at most, a writer checks its live file's age: once a minute, or four times per `maxAgeMs` when that is shorter. */
const AGE_CHECK_MS = 60_000;

/** One writer's live file and its rotations. */
export class AppendFile {
  /** The ledger's configured path: where it is, and this writer's live file while it owns it. */
  readonly path: string;
  readonly #id = newWriterId();
  readonly #mode: number;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #sync: boolean;
  readonly #maxAgeMs: number;
  /** When the next write checks the live file's age (0: at the first write). */
  #nextAgeCheck = 0;
  #live: LiveFile | undefined;
  /** Whether this writer holds the ledger's ownership (decided at its first open). */
  #owner: boolean | undefined;
  /** This writer's rotations so far: the next closed file's number is one more. */
  rotations = 0;
  /** Lines in the closed files this writer's retention removed (any writer's). */
  rotatedAway = 0;
  #retaining: Promise<void> | undefined;
  #retainAgain = false;
  /**
   * The syncs of files rotated away with lines not yet synced, begun as they were closed: `syncDirty`
   * waits for them and throws what failed (kept as a value until then, never an unhandled rejection).
   */
  #retiredSyncs: Promise<SyncFailure | undefined>[] = [];

  constructor(path: string, mode: number, maxFileBytes: number, maxFiles: number, sync: boolean, maxAgeMs: number = Infinity) {
    this.path = path;
    this.#maxAgeMs = maxAgeMs;
    this.#mode = mode;
    this.#maxFileBytes = maxFileBytes;
    this.#maxFiles = maxFiles;
    this.#sync = sync;
  }

  get isOpen(): boolean {
    return this.#live !== undefined;
  }

  /** The file this writer appends to now (the configured path while it owns the ledger). */
  get liveFile(): string {
    return this.#live?.name ?? (this.#owner === false ? writerFile(this.path, this.#id) : this.path);
  }

  /**
   * One write of whole lines at the end of the live file, on a fresh line; synced before it
   * resolves when `sync` is asked and the writer syncs at all, else left for `syncDirty`.
   */
  async write(data: Uint8Array, sync: boolean): Promise<void> {
    const live = this.#ready(data.length);
    this.#writeAt(live, data);
    // The event loop runs between slices: the write itself was synchronous.
    if (sync && this.#sync) await this.syncDirty();
    else await new Promise((done) => setImmediate(done));
  }

  /** Whether lines written are waiting for `syncDirty`. */
  get dirty(): boolean {
    return this.#retiredSyncs.length > 0 || this.#live?.dirty === true;
  }

  /** Syncs every line this writer wrote so far: the live file's, and those of files rotated away meanwhile. */
  async syncDirty(): Promise<void> {
    const live = this.#live;
    // The rotated files' syncs began at rotation: in flight beside the live file's.
    const outcomes = await Promise.all([live?.dirty ? outcomeOf(datasync(live)) : undefined, ...this.#retiredSyncs.splice(0)]);
    for (const outcome of outcomes) if (outcome !== undefined) throw outcome.error;
  }

  /**
   * One write of whole lines, synchronously, on a fresh line, synced when the sink syncs: the
   * write-through of entries that must be on disk before the call returns (a failure's record).
   * The same live file as the asynchronous writes, in the same order. Throws when the write
   * fails or is cut short; the caller keeps the entry.
   */
  writeNow(data: Uint8Array): void {
    const live = this.#ready(data.length);
    this.#writeAt(live, data);
    if (this.#sync) {
      fdatasyncSync(live.fd);
      live.dirty = false;
    }
  }

  /** Appends synchronously, unsynced: for `process.on("exit")` and signal handlers, where nothing asynchronous runs. */
  writeSync(data: Uint8Array): void {
    this.#writeAt(this.#current(), data);
  }

  /**
   * The live file, open: reopened when its name no longer names the file held (moved or removed
   * by something outside the ledger), and read for its last byte when something else appended.
   */
  #current(): LiveFile {
    const live = this.#live;
    if (live === undefined) return this.#open();
    const named = statSync(live.name, { throwIfNoEntry: false });
    if (named?.ino !== live.ino) {
      this.#retire(live);
      return this.#open();
    }
    if (named.size !== live.size) {
      live.size = named.size;
      live.torn = endsTorn(live.fd, named.size);
    }
    return live;
  }

  /** The live file, rotated first when `bytes` more would pass its size cap, or its first entry is past half of `maxAgeMs`. */
  #ready(bytes: number): LiveFile {
    const live = this.#current();
    if (live.size > 0 && (live.size + bytes > this.#maxFileBytes || this.#aged(live))) return this.#rotate(live);
    return live;
  }

  /** Retention by age for the live file: rotated once its first entry is half `maxAgeMs` old, so each file spans at most half of it. */
  #aged(live: LiveFile): boolean {
    if (this.#maxAgeMs === Infinity) return false;
    const now = Date.now();
    if (now < this.#nextAgeCheck) return false;
    this.#nextAgeCheck = now + Math.min(AGE_CHECK_MS, this.#maxAgeMs / 4);
    this.#retain(); // closed files past the age, too
    return live.firstAt !== undefined && live.firstAt < now - this.#maxAgeMs / 2;
  }

  /**
   * Closes the live file by renaming it to this writer's next closed file, and opens a new one.
   * Synchronous: no write of this writer can fall between the rename and the switch.
   */
  #rotate(live: LiveFile): LiveFile {
    renameSync(live.name, closedFile(this.path, this.#id, this.rotations + 1));
    this.rotations++;
    this.#retire(live);
    const fresh = this.#open();
    this.#retain();
    return fresh;
  }

  /** Writes `data` at the end of `live`, on a fresh line, synchronously. */
  #writeAt(live: LiveFile, data: Uint8Array): void {
    if (live.torn) data = Buffer.concat([NEWLINE, data]);
    if (live.size === 0 && live.firstAt === undefined) live.firstAt = Date.now();
    let written = 0;
    try {
      written = writeSync(live.fd, data);
    } finally {
      live.size += written;
      live.torn = written < data.length ? written > 0 || live.torn : false;
    }
    if (written > 0 && this.#sync) live.dirty = true;
    if (written < data.length) {
      // Cut short (a full disk): the part written is a torn line readers skip; the whole slice is retried.
      throw Object.assign(new Error(`short write: ${written} of ${data.length} bytes`), { code: "ENOSPC" });
    }
  }

  /** Opens this writer's live file (taking the ledger's ownership if no live writer has it). */
  #open(): LiveFile {
    mkdirSync(dirname(this.path), { recursive: true });
    writerOpened(this.#id);
    this.#owner ??= takeOwnership(this.path, this.#id, this.#mode);
    const name = this.#owner ? this.path : writerFile(this.path, this.#id);
    const fd = openSync(name, "a+", this.#mode); // a+: the last byte is read back
    try {
      const { size, ino } = fstatSync(fd);
      // The configured path, left by a writer that died: a torn last line of its is not glued to ours.
      const torn = endsTorn(fd, size);
      const firstAt = size > 0 && this.#maxAgeMs !== Infinity ? firstStartedAt(fd) : undefined;
      return (this.#live = { fd, ino, name, size, torn, firstAt, syncing: 0, closeWhenSynced: false, dirty: false });
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
  }

  /** Closes a live file's descriptor once no sync is in flight on it. */
  #retire(live: LiveFile): void {
    if (this.#live === live) this.#live = undefined;
    // Its last lines not synced yet: synced now, closed once synced, the outcome for `syncDirty`.
    if (live.dirty) this.#retiredSyncs.push(outcomeOf(datasync(live)));
    if (live.syncing === 0) closeQuietly(live.fd);
    else live.closeWhenSynced = true;
  }

  /** Runs retention (one pass at a time; one more if asked meanwhile). Failures are left for the next pass. */
  #retain(): void {
    if (this.#retaining) {
      this.#retainAgain = true;
      return;
    }
    this.#retaining = (async () => {
      do {
        this.#retainAgain = false;
        try {
          this.rotatedAway += await removePastRetention(this.path, { maxFiles: this.#maxFiles, maxAgeMs: this.#maxAgeMs }, this.#id, Date.now());
        } catch {
          // A folder that cannot be listed or a file that cannot be removed: kept, and tried again at the next rotation.
        }
      } while (this.#retainAgain);
    })().finally(() => (this.#retaining = undefined));
  }

  /** Opens (creating with `mode`) the live file, unless it is open. */
  async open(): Promise<void> {
    if (this.#live === undefined) this.#open();
    if (this.#maxAgeMs !== Infinity) this.#retain();
  }

  /** Closes the descriptor; the next write opens the live file again (the ledger's ownership is kept). */
  async close(): Promise<void> {
    const live = this.#live;
    if (live) this.#retire(live);
  }

  /** Closes the file for good: waits for retention, then gives up the ledger's ownership. */
  async end(): Promise<void> {
    await this.close();
    // The sink's flush synced (or reported) every line; these only let rotated files' descriptors close.
    await Promise.all(this.#retiredSyncs.splice(0));
    while (this.#retaining) await this.#retaining;
    if (this.#owner) releaseOwnership(this.path, this.#id);
    this.#owner = undefined;
    writerEnded(this.#id);
  }
}
