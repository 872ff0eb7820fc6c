// The files of one ledger on disk, named from its configured path (docs/ledger.md "Files on
// disk"). Several processes may write one ledger, and each writes only files of its own:
//
//   <path>                          the live file of the ledger's owner (one process at a time,
//                                   ledger-writers.ts), so a single process writes <path> as ever
//   <stem>.<id><ext>                the live file of any other writer (id: <pid>-<start>-<host>)
//   <stem>.<id>.<n><ext>            a closed file: writer <id>'s live file, renamed at its
//                                   n-th rotation; never written again, so counting its lines
//                                   before removing it counts exactly what is lost
//   <path>.<n>                      a rotated file of the layout before (read, and retained, as closed)
//
// For `ledger.jsonl`, <stem> is `ledger` and <ext> `.jsonl`: `ledger.4242-1764608100123-3f9a0c.3.jsonl`.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";

/** One file of a ledger. */
export interface LedgerFile {
  readonly file: string;
  /** The writer that wrote it (`<pid>-<start>-<host>`); undefined for `<path>` and the older layout's files. */
  readonly writer: string | undefined;
  /** Whether it may still be written: `<path>`, or a writer's live file (closed: never written again). */
  readonly live: boolean;
  /** Its last modification (ms): the time of its newest line. */
  readonly mtimeMs: number;
  /** Its order within its writer's files (a closed file's rotation number; live files last). */
  readonly seq: number;
}

/** The writer's live file (`<stem>.<id><ext>`), for a writer that does not own `<path>`. */
export function writerFile(path: string, id: string): string {
  const { dir, stem, ext } = partsOf(path);
  return join(dir, `${stem}.${id}${ext}`);
}

/** The name of writer `id`'s `seq`-th closed file. */
export function closedFile(path: string, id: string, seq: number): string {
  const { dir, stem, ext } = partsOf(path);
  return join(dir, `${stem}.${id}.${seq}${ext}`);
}

/**
 * Every file of the ledger at `path`, in the order to read them: by the time of their newest
 * line, oldest first, so every writer's files come in the order it wrote them.
 * Files being removed (`*.removing-*`), lock and owner files are not ledger files. A missing
 * folder is an empty ledger.
 */
export function ledgerFiles(path: string): LedgerFile[] {
  const { dir, stem, ext } = partsOf(path);
  const base = basename(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw error;
  }
  const writerName = new RegExp(`^${literal(stem)}\\.(\\d+-\\d+-[0-9a-f]{6})(?:\\.(\\d+))?${literal(ext)}$`);
  const olderName = new RegExp(`^${literal(base)}\\.(\\d+)$`);
  const files: LedgerFile[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const writer = name === base ? undefined : writerName.exec(name);
    const older = name === base || writer ? undefined : olderName.exec(name);
    if (name !== base && !writer && !older) continue;
    const info = statSync(file, { throwIfNoEntry: false });
    if (info === undefined) continue; // removed meanwhile
    if (name !== base && info.isDirectory()) continue; // a reader given a folder as the path says so
    if (name === base) files.push({ file, writer: undefined, live: true, mtimeMs: info.mtimeMs, seq: Infinity });
    else if (writer)
      files.push({
        file,
        writer: writer[1],
        live: writer[2] === undefined,
        mtimeMs: info.mtimeMs,
        seq: writer[2] === undefined ? Infinity : Number(writer[2]),
      });
    else files.push({ file, writer: undefined, live: false, mtimeMs: info.mtimeMs, seq: -Number(older?.[1]) });
  }
  return files.sort(readOrder);
}

/**
 * Oldest newest-line first; within one writer (or the older layout), by rotation. A writer's
 * files are in the order it wrote them either way (a closed file keeps its time when renamed);
 * the rotation number only settles files whose times are equal.
 */
function readOrder(a: LedgerFile, b: LedgerFile): number {
  if (a.file === b.file) return 0;
  if (a.writer === b.writer && a.seq !== b.seq) return a.seq - b.seq;
  return a.mtimeMs - b.mtimeMs || (a.file < b.file ? -1 : 1);
}

function partsOf(path: string): { dir: string; stem: string; ext: string } {
  const base = basename(path);
  const ext = extname(base);
  return { dir: dirname(path), stem: ext === "" ? base : base.slice(0, -ext.length), ext };
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
