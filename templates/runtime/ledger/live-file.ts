// A writer's open ledger file: its descriptor and what the writer knows of it, and the
// `fdatasync` that closes a rotated file's descriptor once the last sync on it is done.
import { closeSync, fdatasync, readSync } from "node:fs";

/** The live file open for writing. */
export interface LiveFile {
  readonly fd: number;
  readonly ino: number;
  readonly name: string;
  /** Bytes in it after this writer's last write (more: something else appended). */
  size: number;
  /** Its last line is not whole (a write cut short): the next write starts on a fresh line. */
  torn: boolean;
  /** When its first entry started (ms), for retention by age. */
  firstAt: number | undefined;
  /** `fdatasync` calls in flight: the descriptor is closed once they are done. */
  syncing: number;
  closeWhenSynced: boolean;
  /** Written since its last `fdatasync` began (only while the writer syncs at all). */
  dirty: boolean;
}

/** Syncs `live`'s lines to disk; its descriptor is closed afterwards if it was rotated away meanwhile. */
export function datasync(live: LiveFile): Promise<void> {
  live.syncing++;
  live.dirty = false; // what is written from here on needs a sync of its own
  return new Promise<void>((done, fail) =>
    fdatasync(live.fd, (error) => {
      live.syncing--;
      if (live.closeWhenSynced && live.syncing === 0) closeQuietly(live.fd);
      if (error) fail(error);
      else done();
    }),
  );
}

/** Whether the file of `fd` (`size` bytes) ends in the middle of a line. */
export function endsTorn(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
}

export type SyncFailure = { readonly error: unknown };

/** A sync's failure as a value, so that one nobody waits for yet is not an unhandled rejection. */
export function outcomeOf(sync: Promise<void>): Promise<SyncFailure | undefined> {
  return sync.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
}
