// Tools' finished files, kept on disk instead of in memory until the package is written. On a
// large description the package is hundreds of megabytes of text (Elasticsearch's serverless
// description: 186 MB, each tool carrying the schemas it reaches), all of it held by the main
// thread from the first tool to the last. Each file goes instead to a folder beside the output,
// `.<out>.toolguard-spill-<pid>`, written by the worker thread that made it (spill-write.ts), and
// the main thread gets its path, not its text: the text is read back only when needed. The
// write links it into the new package folder (write-output.ts), so nothing is written twice and
// the output is still swapped in whole or not at all.
//
// The folder goes when the process exits. A process that was killed cannot remove its own: the
// next run beside the same output removes every spill folder whose process is gone.
import { readFileSync, rmSync } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { EmittedFile } from "../emit/runtime.ts";
import { removeStaleFolders } from "../stale-folders.ts";
import { type SpilledRecord, spillFile } from "./spill-write.ts";

const MARK = ".toolguard-spill-";

/** A file whose text is on disk, at `spilledAt`; `content` reads it back. */
export class SpilledFile implements EmittedFile {
  readonly path: string;
  readonly spilledAt: string;

  constructor(file: string, spilledAt: string) {
    this.path = file;
    this.spilledAt = spilledAt;
  }

  get content(): string {
    return readFileSync(this.spilledAt, "utf8");
  }
}

/** `files` with each spilled one's text read back: what a cache entry stores (a spilled copy serialises as its path alone). */
export function inMemory(files: readonly EmittedFile[]): EmittedFile[] {
  return files.map((file) => (file instanceof SpilledFile ? { path: file.path, content: file.content } : file));
}

/** Where a process spills the files of the package it writes to `out`. */
export function spillFolder(out: string, pid: number = process.pid): string {
  return path.join(path.dirname(out), `.${path.basename(out)}${MARK}${pid}`);
}

/** Removes the spill folders in `parent` left by processes that are gone (killed mid-run); resolves to their paths. */
export function removeStaleSpills(parent: string): Promise<string[]> {
  return removeStaleFolders(parent, MARK);
}

/** The spill folders this process has open, each removed at exit by one listener (a --watch session opens one per run). */
const open = new Map<string, Spill>();

function removeAll(): void {
  for (const spill of [...open.values()]) spill.remove();
}

/** One package's spill folder, open for the run. */
export class Spill {
  readonly folder: string;
  /** One copy per file on disk: a shared module many tools answer with is one object, compared by identity. */
  readonly #files = new Map<string, SpilledFile>();
  readonly #spilled = new WeakMap<EmittedFile, EmittedFile>();

  private constructor(folder: string) {
    this.folder = folder;
  }

  /**
   * Opens the spill folder for `out`, after removing stale ones beside it (and this process's
   * own from an earlier run, as under --watch). Undefined when the output's parent folder is
   * missing or cannot be written (a `check` in a read-only checkout): the files then stay in
   * memory, as before, and nothing is created.
   */
  static async open(out: string): Promise<Spill | undefined> {
    const parent = path.dirname(out);
    if (
      !(await stat(parent).then(
        (info) => info.isDirectory(),
        () => false,
      ))
    )
      return undefined;
    await removeStaleSpills(parent);
    const folder = spillFolder(out);
    try {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder);
    } catch {
      return undefined;
    }
    const spill = new Spill(folder);
    if (open.size === 0) process.once("exit", () => removeAll());
    open.set(folder, spill);
    return spill;
  }

  /**
   * `files`, each written to the folder (spill-write.ts) and replaced by its spilled copy. A
   * file met before (the same object: a shared module SharedModuleCopies kept once) is its
   * earlier copy. Other bytes at a path already spilled stay in memory, so that
   * withSharedModulesOnce compares the two texts rather than one file read twice.
   */
  put(files: readonly EmittedFile[]): EmittedFile[] {
    return files.map((file) => {
      if (file instanceof SpilledFile) return file;
      let spilled = this.#spilled.get(file);
      if (spilled === undefined) this.#spilled.set(file, (spilled = this.adopt([spillFile(this.folder, file) ?? file])[0] as EmittedFile));
      return spilled;
    });
  }

  /** A worker's answer (files it spilled itself to this folder, by spill-write.ts, and those it kept), as files. */
  adopt(files: readonly (EmittedFile | SpilledRecord)[]): EmittedFile[] {
    return files.map((file) => {
      if (!("spilledAt" in file) || file instanceof SpilledFile) return file as EmittedFile;
      let spilled = this.#files.get(file.spilledAt);
      if (spilled === undefined) this.#files.set(file.spilledAt, (spilled = new SpilledFile(file.path, file.spilledAt)));
      return spilled;
    });
  }

  remove(): void {
    open.delete(this.folder);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
