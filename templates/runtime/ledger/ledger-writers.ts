// Who writes a ledger: each sink is a writer with an id of its own (`<pid>-<start>`), and at most
// one writer at a time owns the ledger's configured path (the others write files of their own,
// ledger-files.ts). Nothing here is ever waited on by a write: ownership is settled when a
// writer opens its file, and a live owner can never lose it.
//
// Ownership is the newest `<path>.owner-<n>` file, made with O_EXCL and holding its writer's id.
// A writer takes it only when the newest one's writer is dead, by making `<path>.owner-<n+1>`:
// creating a file that exists fails, so two writers can never both take the same generation,
// and a writer that finds a newer generation than its own after making it gives it up again.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * This machine, in writer ids: a ledger on a volume shared by several machines (or containers,
 * each with its own process ids and host name) has writers whose pids mean nothing here.
 */
const HOST = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);

/**
 * This process's writers: those open (their ids: a file of this process's pid whose writer is
 * not here is a dead one's), and the last start time given out (each writer's is its own).
 * Process-wide by nature, like the process's pid.
 */
const here = { open: new Set<string>(), lastStart: 0 };
const openHere = here.open;

/** A new writer id (`<pid>-<start>-<host>`): this process's pid, a start time no other writer of this process has, and this machine. */
export function newWriterId(): string {
  here.lastStart = Math.max(Date.now(), here.lastStart + 1);
  return `${process.pid}-${here.lastStart}-${HOST}`;
}

export function writerOpened(id: string): void {
  openHere.add(id);
}

export function writerEnded(id: string): void {
  openHere.delete(id);
}

/**
 * Whether writer `id` may still be writing. A writer of this process is alive while it is open
 * here; another process's while its pid exists. A writer of another machine is always taken for
 * alive (its pid cannot be checked here). A reused pid makes a dead writer look alive, which only
 * keeps its files longer; a live writer never looks dead.
 */
export function writerAlive(id: string): boolean {
  const [pidText = "", , host] = id.split("-");
  if (host !== HOST) return true;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return openHere.has(id);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** The owner files of the ledger at `path`, newest generation first. */
function ownerFiles(path: string): { generation: number; file: string }[] {
  const prefix = `${basename(path)}.owner-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ generation: Number(name.slice(prefix.length)), file: join(dirname(path), name) }))
    .sort((a, b) => b.generation - a.generation);
}

/** The id written in an owner file; "" while its writer is still writing it (read as alive), undefined once removed. */
function holderOf(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Makes writer `id` the owner of `path` when no live writer owns it. Returns whether it did.
 * Synchronous: called once when the writer opens its file.
 */
export function takeOwnership(path: string, id: string, mode: number): boolean {
  for (let attempt = 0; attempt < 8; attempt++) {
    const owners = ownerFiles(path);
    const newest = owners[0];
    if (newest !== undefined) {
      const holder = holderOf(newest.file);
      if (holder === undefined) continue; // released meanwhile: look again
      if (holder === id) return true;
      if (holder === "" || writerAlive(holder)) return false;
    }
    const generation = (newest?.generation ?? 0) + 1;
    const mine = `${path}.owner-${generation}`;
    try {
      writeFileSync(mine, id, { flag: "wx", mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    // A writer that looked before an older generation was cleared may have made a newer one: it owns the path.
    if (ownerFiles(path).some((owner) => owner.generation > generation)) {
      rmSync(mine, { force: true });
      return false;
    }
    for (const owner of owners) rmSync(owner.file, { force: true }); // dead writers' generations
    return true;
  }
  return false;
}

/** Gives up writer `id`'s ownership of `path` (its writer has closed its file for good). */
export function releaseOwnership(path: string, id: string): void {
  for (const owner of ownerFiles(path)) if (holderOf(owner.file) === id) rmSync(owner.file, { force: true });
}
