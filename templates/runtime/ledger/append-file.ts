// The JSONL sink's file: opened for appending (created with the sink's mode), rotated past its
// size cap, and written one slice at a time, each on a fresh line. Shared with other processes:
// the path is checked before each write, since another writer may have rotated or removed it.
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { mkdir, open, stat, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { expireAged, rotateLedger } from "./rotation.ts";

const NEWLINE = Buffer.from("\n");
/** How often, at most, a writer looks for files past the age limit: once a minute, or four times per `maxAgeMs` when that is shorter. */
const AGE_CHECK_MS = 60_000;
/** Looks at the path before a write gives up on a file renamed meanwhile and writes to what it has (a rotated file, still counted when removed). */
const MAX_LOOKS = 5;

interface OpenFile {
  readonly handle: FileHandle;
  readonly ino: number;
}

/** One ledger file and its rotated predecessors (`<path>.1` ... `<path>.N`). */
export class AppendFile {
  readonly path: string;
  readonly #mode: number;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #sync: boolean;
  readonly #maxAgeMs: number;
  /** When the next write looks for files past `maxAgeMs` (0: at the first write). */
  #nextAgeCheck = 0;
  #file: OpenFile | undefined;
  #opening: Promise<OpenFile> | undefined;
  /** Where our last whole write ended (the file and its size then): its last byte is our newline. */
  #end: { readonly ino: number; readonly size: number } | undefined;
  /** The descriptor `writeNow` writes through (synchronous calls cannot use the asynchronous handle). */
  #now: { readonly fd: number; readonly ino: number } | undefined;
  rotations = 0;
  /** Lines in the files this writer's rotations removed (retention). */
  rotatedAway = 0;

  constructor(path: string, mode: number, maxFileBytes: number, maxFiles: number, sync: boolean, maxAgeMs: number = Infinity) {
    this.path = path;
    this.#maxAgeMs = maxAgeMs;
    this.#mode = mode;
    this.#maxFileBytes = maxFileBytes;
    this.#maxFiles = maxFiles;
    this.#sync = sync;
  }

  get isOpen(): boolean {
    return this.#file !== undefined;
  }

  /** One write of whole lines at the end of the file, on a fresh line; synced when the sink syncs. */
  async write(data: Uint8Array): Promise<void> {
    for (let look = 1; ; look++) {
      // The path, not the handle: another process may have rotated the file away, or it was removed.
      let current = await stat(this.path).catch(() => undefined);
      if (this.#file && current?.ino !== this.#file.ino) await this.close();
      let file = this.#file ?? (await this.#open());
      if (current?.ino !== file.ino) current = await file.handle.stat();
      const aged = current.size > 0 && (await this.#expireAged());
      if (aged || (current.size > 0 && current.size + data.length > this.#maxFileBytes)) {
        // Rotated before the write, so a file never grows past the cap by more than one slice.
        await this.close();
        const { rotated, linesRemoved } = await rotateLedger(this.path, this.#maxFiles, current.ino);
        if (rotated) this.rotations++;
        this.rotatedAway += linesRemoved;
        file = await this.#open();
      }
      // From the last look at the path to the write, nothing awaits. Across an event-loop turn
      // (long on a loaded machine) other writers could rotate this file out of retention, count
      // its lines and remove it, and the slice written into it after that would be lost
      // uncounted (test/ledger/processes.test.ts, 4 processes). Between two system calls that
      // needs as many rotations in microseconds. Renamed meanwhile: look again.
      const named = statSync(this.path, { throwIfNoEntry: false });
      if (named?.ino !== file.ino && look < MAX_LOOKS) {
        await this.close();
        continue;
      }
      this.#writeAt(file, named?.ino === file.ino ? named.size : fstatSync(file.handle.fd).size, data);
      if (this.#sync) await file.handle.datasync();
      return;
    }
  }

  /** Writes `data` at the end of `file` (now `size` bytes), on a fresh line, synchronously. */
  #writeAt(file: OpenFile, size: number, data: Uint8Array): void {
    const fd = file.handle.fd;
    // Unless the file ends where our last whole write did (no other writer appended since):
    // a writer died mid-line, or our own write was cut short: start on a fresh line.
    if (size > 0 && (this.#end?.ino !== file.ino || this.#end.size !== size)) {
      const last = Buffer.alloc(1);
      if (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) data = Buffer.concat([NEWLINE, data]);
    }
    this.#end = undefined;
    const written = writeSync(fd, data);
    if (written < data.length) {
      // Cut short (a full disk): the part written is a torn line readers skip; the whole slice is retried.
      throw Object.assign(new Error(`short write: ${written} of ${data.length} bytes`), { code: "ENOSPC" });
    }
    this.#end = { ino: file.ino, size: size + data.length };
  }

  /**
   * Retention by age, at most once per `AGE_CHECK_MS`: removes (and counts) rotated files past
   * `maxAgeMs`; true when the live file's first entry is past it too, so it is rotated now.
   */
  async #expireAged(): Promise<boolean> {
    if (this.#maxAgeMs === Infinity) return false;
    const now = Date.now();
    if (now < this.#nextAgeCheck) return false;
    this.#nextAgeCheck = now + Math.min(AGE_CHECK_MS, this.#maxAgeMs / 4);
    const { linesRemoved, rotateLive } = await expireAged(this.path, this.#maxFiles, this.#maxAgeMs, now);
    this.rotatedAway += linesRemoved;
    return rotateLive;
  }

  /**
   * Appends `text` synchronously on a fresh line (an interrupted asynchronous write may have left
   * half of one): for `process.on("exit")` and signal handlers, where nothing asynchronous runs.
   */
  writeSync(data: Uint8Array): void {
    let fd: number | undefined;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      fd = openSync(this.path, "a", this.#mode);
      writeSync(fd, Buffer.concat([NEWLINE, data]));
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * One write of whole lines, synchronously, on a fresh line, synced when the sink syncs: the
   * write-through of entries that must be on disk before the call returns (a failure's record).
   * The kernel orders it against the asynchronous writes (both O_APPEND, one `write` each), so
   * lines never interleave. Throws when the write fails or is cut short; the caller keeps the entry.
   */
  writeNow(data: Uint8Array): void {
    // The path, not the descriptor: another process (or our own asynchronous side) may have rotated it.
    const named = statSync(this.path, { throwIfNoEntry: false });
    if (this.#now && named?.ino !== this.#now.ino) this.#closeNow();
    if (this.#now === undefined) {
      mkdirSync(dirname(this.path), { recursive: true });
      const fd = openSync(this.path, "a+", this.#mode);
      this.#now = { fd, ino: fstatSync(fd).ino };
    }
    const fd = this.#now.fd;
    const size = named?.ino === this.#now.ino ? named.size : fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      if (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) data = Buffer.concat([NEWLINE, data]);
    }
    const written = writeSync(fd, data);
    if (written < data.length) throw Object.assign(new Error(`short write: ${written} of ${data.length} bytes`), { code: "ENOSPC" });
    if (this.#sync) fdatasyncSync(fd);
  }

  #closeNow(): void {
    const now = this.#now;
    this.#now = undefined;
    if (now) closeSync(now.fd);
  }

  /** Opens (creating with `mode`) the file for appending, unless it is open. */
  async open(): Promise<void> {
    await this.#open();
  }

  /** Opens the file, one open at a time. */
  #open(): Promise<OpenFile> {
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

  /** Closes the handle; the next write opens the path again (it may name somewhere else by then). */
  async close(): Promise<void> {
    try {
      this.#closeNow();
    } catch {
      // Already closed: nothing to release.
    }
    const file = this.#file;
    this.#file = undefined;
    this.#end = undefined;
    await file?.handle.close().catch(() => undefined);
  }
}
