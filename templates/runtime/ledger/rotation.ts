// Retention of a ledger several processes write (docs/ledger.md "Files on disk"): every writer
// rotates only its own live file (append-file.ts), and any writer removes closed files past the
// ledger's limits, whoever wrote them. A closed file is never written again, so the lines counted
// before it is removed are exactly the lines lost: nothing rotated away is silent or uncounted.
// Two writers removing the same file count it once: each first renames the file to a name of its
// own (`<file>.removing-<id>`), and only the one whose rename succeeds counts and removes it.
import { createReadStream, readdirSync, readSync, openSync, closeSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { countLedgerLost } from "../telemetry/telemetry.ts";
import { ledgerFiles, type LedgerFile } from "./ledger-files.ts";
import { writerAlive } from "./ledger-writers.ts";

/** The limits of one ledger, across every writer's files. */
export interface Retention {
  /** Closed files kept (the newest), besides each live writer's live file. */
  readonly maxFiles: number;
  /** A closed file whose newest line is older than this (ms) is removed. */
  readonly maxAgeMs: number;
}

/**
 * Removes the ledger's closed files past `retention`: the oldest beyond the newest `maxFiles`, and
 * every one whose newest line is older than `maxAgeMs`. A dead writer's live file counts as
 * closed (nobody can write it any more); `<path>` is left to its next owner. Returns the lines
 * removed, also counted in telemetry (`toolguard.ledger.lost`, reason `rotated`).
 */
export async function removePastRetention(path: string, retention: Retention, me: string, now: number): Promise<number> {
  const closed = ledgerFiles(path)
    .filter((file) => !file.live || (file.writer !== undefined && !writerAlive(file.writer)))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.seq - a.seq);
  const cutoff = now - retention.maxAgeMs;
  let lines = 0;
  for (const [index, file] of closed.entries()) {
    if (index < retention.maxFiles && file.mtimeMs >= cutoff) continue;
    lines += await removeCounted(file, me);
  }
  lines += await finishAbandonedRemovals(path, me);
  if (lines > 0) countLedgerLost(lines, "rotated");
  return lines;
}

/** Takes `file` for removal (0 when another writer took it first), counts its lines, removes it. */
async function removeCounted(file: LedgerFile, me: string): Promise<number> {
  const claimed = `${file.file}.removing-${me}`;
  try {
    await rename(file.file, claimed);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const lines = await countLines(claimed);
  await rm(claimed, { force: true });
  return lines;
}

/** Files a writer took for removal and died before removing: counted and removed now (they were never counted). */
async function finishAbandonedRemovals(path: string, me: string): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return 0;
  }
  const stem = basename(path).replace(/\.[^.]*$/, "");
  let lines = 0;
  for (const name of names) {
    const at = name.lastIndexOf(".removing-");
    if (at === -1 || !name.startsWith(`${stem}.`)) continue;
    const taker = name.slice(at + ".removing-".length);
    if (taker === me || writerAlive(taker)) continue;
    const file = join(dirname(path), name);
    const mine = `${file.slice(0, file.lastIndexOf(".removing-"))}.removing-${me}`;
    try {
      await rename(file, mine);
    } catch {
      continue; // another writer took it
    }
    lines += await countLines(mine);
    await rm(mine, { force: true });
  }
  return lines;
}

/** The `startedAt` of the file's first entry (ms), from its first 4 KiB; undefined when there is none to read. */
export function firstStartedAt(fd: number): number | undefined {
  const head = Buffer.alloc(4096);
  let bytes: number;
  try {
    bytes = readSync(fd, head, 0, head.length, 0);
  } catch {
    return undefined;
  }
  const text = head.toString("utf8", 0, bytes);
  const line = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  const time = /"startedAt":"([^"]{1,40})"/.exec(line)?.[1];
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The `startedAt` of the first entry of the file at `path`, read synchronously. */
export function firstStartedAtOf(path: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    return firstStartedAt(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Newlines in a file (a torn last line counts as a line); 0 for a missing file. */
export async function countLines(path: string): Promise<number> {
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
