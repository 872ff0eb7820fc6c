// Writes a generated package so that the folder is either entirely the old output or entirely
// the new: everything goes to a sibling temporary folder first, which then replaces the old one
// by renames. A failure before the swap leaves the previous output untouched, and output that is
// already on disk byte for byte is not written at all (a cached re-run touches nothing).
import { compareWithDisk } from "./check.ts";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EmittedFile } from "./emit/runtime.ts";

/** Writes the package; resolves to `false` when the folder already held exactly these files. */
export async function writePackage(out: string, files: readonly EmittedFile[]): Promise<boolean> {
  const current = await compareWithDisk(out, files);
  if (current.stale.length + current.missing.length + current.extra.length === 0) return false;
  const parent = path.dirname(out);
  const base = path.basename(out);
  const staging = path.join(parent, `.${base}.toolguard-new-${process.pid}`);
  const retired = path.join(parent, `.${base}.toolguard-old-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    const dirs = new Set(files.map((file) => path.dirname(path.join(staging, file.path))));
    for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
    await Promise.all(files.map((file) => writeFile(path.join(staging, file.path), file.content)));
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
