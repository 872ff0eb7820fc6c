// Rotating one ledger that several processes write: one rotation at a time (a lock file made with
// O_EXCL), and only if the file is still the one that was found full (another writer may have
// rotated it meanwhile: rotating again would push a fresh file out of retention). The lines of
// the file retention removes are counted first, so what rotation loses is never silent.
// Retention by age (`expireAged`) works under the same lock and is counted the same way.
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { countLedgerLost } from "../telemetry/telemetry.ts";

/** A lock older than this was left by a writer that died while rotating. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for another's rotation before it gives up for this write (and writes on). */
const LOCK_WAIT_MS = 2_000;
const LOCK_POLL_MS = 5;

export interface RotationResult {
  /** Whether this writer rotated the file (false: another had, or the lock was not free). */
  readonly rotated: boolean;
  /** Lines in the file retention removed (0 when none was removed). */
  readonly linesRemoved: number;
}

/**
 * Rotates `path` (`<path>` to `<path>.1`, older ones up to `<path>.<maxFiles>`, the last removed)
 * if it still is the file with inode `full`. Lines removed are counted in telemetry
 * (`toolguard.ledger.lost`, reason `rotated`).
 */
export async function rotateLedger(path: string, maxFiles: number, full: number): Promise<RotationResult> {
  const lock = await takeLock(`${path}.lock`);
  if (lock === undefined) return { rotated: false, linesRemoved: 0 };
  try {
    const now = await stat(path).catch(() => undefined);
    if (now?.ino !== full) return { rotated: false, linesRemoved: 0 };
    const removed = maxFiles === 0 ? path : `${path}.${maxFiles}`;
    const linesRemoved = await countLines(removed);
    if (maxFiles === 0) await rm(path, { force: true });
    else {
      for (let index = maxFiles - 1; index >= 1; index--) await rename(`${path}.${index}`, `${path}.${index + 1}`).catch(() => undefined);
      await rename(path, `${path}.1`);
    }
    if (linesRemoved > 0) countLedgerLost(linesRemoved, "rotated");
    return { rotated: true, linesRemoved };
  } finally {
    await lock.close().catch(() => undefined);
    await rm(`${path}.lock`, { force: true });
  }
}

/**
 * Retention by age: removes the rotated files whose newest line is older than `maxAgeMs` (their
 * modification time), oldest first, counting their lines (telemetry reason `rotated`, as size
 * retention does). Returns the lines removed and whether the live file `path` (inode `live`)
 * must itself be rotated: its first entry started more than half of `maxAgeMs` ago. A file is removed only
 * from the end of the sequence, so `<path>.1` ... `<path>.N` stay contiguous for readers.
 */
export async function expireAged(path: string, maxFiles: number, maxAgeMs: number, now: number): Promise<{ linesRemoved: number; rotateLive: boolean }> {
  const cutoff = now - maxAgeMs;
  const lock = await takeLock(`${path}.lock`);
  if (lock === undefined) return { linesRemoved: 0, rotateLive: false };
  let linesRemoved = 0;
  try {
    let last = 0;
    while (last < maxFiles && (await stat(`${path}.${last + 1}`).catch(() => undefined))) last++;
    for (let index = last; index >= 1; index--) {
      const file = `${path}.${index}`;
      const info = await stat(file).catch(() => undefined);
      if (info === undefined || info.mtimeMs >= cutoff) break;
      linesRemoved += await countLines(file);
      await rm(file, { force: true });
    }
  } finally {
    await lock.close().catch(() => undefined);
    await rm(`${path}.lock`, { force: true });
  }
  if (linesRemoved > 0) countLedgerLost(linesRemoved, "rotated");
  // The live file is rotated at half the age, so each file spans at most half of it: an entry is
  // kept at least `maxAgeMs` and removed by about 1.5 times that.
  const first = await firstStartedAt(path);
  return { linesRemoved, rotateLive: first !== undefined && first < now - maxAgeMs / 2 };
}

/** The `startedAt` of the file's first entry (ms), from its first 4 KiB; undefined when there is none to read. */
async function firstStartedAt(path: string): Promise<number | undefined> {
  let head: string;
  try {
    const handle = await open(path, "r");
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
      head = buffer.toString("utf8", 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const time = /"startedAt":"([^"]{1,40})"/.exec(head.slice(0, head.indexOf("\n") === -1 ? head.length : head.indexOf("\n")))?.[1];
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}

async function takeLock(lock: string): Promise<{ close(): Promise<void> } | undefined> {
  const giveUp = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await open(lock, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = await stat(lock).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
    else if (Date.now() > giveUp) return undefined;
    else await new Promise((done) => setTimeout(done, LOCK_POLL_MS));
  }
}

/** Newlines in a file (a torn last line counts as a line); 0 for a missing file. */
async function countLines(path: string): Promise<number> {
  let lines = 0;
  let last = 0x0a;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
      last = chunk[chunk.length - 1] ?? last;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  return last === 0x0a ? lines : lines + 1;
}
