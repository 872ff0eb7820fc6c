// Tools' finished files, kept on disk instead of in memory until the package is written. On a
// large description the package is hundreds of megabytes of text (Elasticsearch's serverless
// description: 186 MB, each tool carrying the schemas it reaches), all of it held by the main
// thread from the first tool to the last. Each file goes instead to a folder beside the output,
// `.<out>.toolguard-spill-<pid>`, as its tool arrives, and is read back only when needed: the
// write links it into the new package folder (write-output.ts), so nothing is written twice and
// the output is still swapped in whole or not at all.
//
// The folder goes when the process exits. A process that was killed cannot remove its own: the
// next run beside the same output removes every spill folder whose process is gone.
import { readFileSync, rmSync } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EmittedFile } from "../emit/runtime.ts";
import { removeStaleFolders } from "../stale-folders.ts";

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
  readonly #spilled = new WeakMap<EmittedFile, SpilledFile>();
  readonly #paths = new Set<string>();
  readonly #dirs = new Map<string, Promise<unknown>>();
  readonly #writes = new WeakMap<SpilledFile, Promise<boolean>>();

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
   * `files`, each written to the folder and replaced by its spilled copy. A file met before (the
   * same object: a shared module SharedModuleCopies kept once) is its earlier copy. A second
   * file at a path already spilled stays in memory, so that withSharedModulesOnce compares the
   * two texts rather than one file read twice.
   */
  async put(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
    return Promise.all(
      files.map(async (file) => {
        if (file instanceof SpilledFile) return file;
        const earlier = this.#spilled.get(file);
        if (earlier) return (await this.#writes.get(earlier)) ? earlier : file;
        if (this.#paths.has(file.path)) return file;
        this.#paths.add(file.path);
        const target = path.join(this.folder, file.path);
        const spilled = new SpilledFile(file.path, target);
        // Known at once, before the write ends: another tool arriving meanwhile takes this copy too.
        this.#spilled.set(file, spilled);
        const dir = path.dirname(target);
        let made = this.#dirs.get(dir);
        if (!made) this.#dirs.set(dir, (made = mkdir(dir, { recursive: true })));
        // A write that fails (a full disk) leaves the file in memory: the write of the package
        // itself reports that disk's problem with its fix.
        const written = made
          .then(() => writeFile(target, file.content))
          .then(
            () => true,
            () => false,
          );
        this.#writes.set(spilled, written);
        return (await written) ? spilled : file;
      }),
    );
  }

  remove(): void {
    open.delete(this.folder);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
