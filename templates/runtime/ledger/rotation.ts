// Rotating one ledger that several processes write: one rotation at a time (a lock file made with
// O_EXCL), and only if the file is still the one that was found full (another writer may have
// rotated it meanwhile: rotating again would push a fresh file out of retention). The lines of
// the file retention removes are counted first, so what rotation loses is never silent.
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
