// Writes a generated package so that the folder is either entirely the old output or entirely
// the new: everything goes to a sibling temporary folder first, which then replaces the old one
// by renames. A failure before the swap leaves the previous output untouched, and output that is
// already on disk byte for byte is not written at all (a cached re-run touches nothing). Files
// that did not change are hard-linked into the new folder rather than written again: with one
// tool changed, that is thousands of links instead of thousands of writes. Files that a large
// set spilled to disk as they were made (speed/spill.ts) are linked from the spill folder.
import { compareWithDisk } from "./check.ts";
import { link, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EmittedFile } from "./emit/runtime.ts";
import { removeStaleFolders } from "./stale-folders.ts";

/** The staging folder's mark: `.<out>.toolguard-new-<pid>`. */
const STAGING_MARK = ".toolguard-new-";

/** Writes the package; resolves to `false` when the folder already held exactly these files. */
export async function writePackage(out: string, files: readonly EmittedFile[]): Promise<boolean> {
  const parent = path.dirname(out);
  const base = path.basename(out);
  // A run killed while staging left its folder behind (never its `-old-` one: see stale-folders.ts).
  await removeStaleFolders(parent, STAGING_MARK, base);
  const current = await compareWithDisk(out, files);
  if (current.stale.length + current.hashOnly.length + current.missing.length + current.extra.length === 0) return false;
  const staging = path.join(parent, `.${base}${STAGING_MARK}${process.pid}`);
  const retired = path.join(parent, `.${base}.toolguard-old-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  const changed = new Set([...current.missing, ...current.hashOnly, ...current.stale.map((file) => file.path)]);
  try {
    const dirs = new Set(files.map((file) => path.dirname(path.join(staging, file.path))));
    for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
    await Promise.all(
      files.map(async (file) => {
        const target = path.join(staging, file.path);
        // Where linking is not possible (another file system, no hard links), write the bytes.
        if (!changed.has(file.path) && (await linked(path.join(out, file.path), target))) return;
        // A file spilled to disk during generation (speed/spill.ts) is linked from there too.
        if ("spilledAt" in file && typeof file.spilledAt === "string" && (await linked(file.spilledAt, target))) return;
        await writeFile(target, file.content);
      }),
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadOld = true;
  try {
    await rename(out, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    hadOld = false;
  }
  try {
    await rename(staging, out);
  } catch (error) {
    if (hadOld) await rename(retired, out);
    throw error;
  }
  if (hadOld) await rm(retired, { recursive: true, force: true });
  return true;
}

/** Whether `target` could be made a hard link to `existing`. */
function linked(existing: string, target: string): Promise<boolean> {
  return link(existing, target).then(
    () => true,
    () => false,
  );
}
