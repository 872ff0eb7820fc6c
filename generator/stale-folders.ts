// Folders a run keeps beside the output while it works, each named after the process that owns
// it: `.<out>.toolguard-spill-<pid>` (speed/spill.ts) and `.<out>.toolguard-new-<pid>`, where
// writePackage stages the new package (write-output.ts). A process that exits removes its own; one
// that was killed cannot, so the next run beside the same output removes those whose process is
// gone. Never `-old-`: between the two renames of the swap it can hold the only copy of the output.
import { readdir, rm } from "node:fs/promises";
import path from "node:path";

/** The process that owns a folder named `.<base><mark><pid>`; undefined for any other name (or another base, when one is given). */
export function folderOwner(name: string, mark: string, base?: string): number | undefined {
  const at = name.lastIndexOf(mark);
  if (at <= 0 || !name.startsWith(".")) return undefined;
  if (base !== undefined && name.slice(1, at) !== base) return undefined;
  const pid = name.slice(at + mark.length);
  return /^[1-9][0-9]*$/.test(pid) ? Number(pid) : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the folders in `parent` named with `mark` (for the output named `base` only, when
 * given) whose process is gone; resolves to their paths. This process's own are left to it.
 */
export async function removeStaleFolders(parent: string, mark: string, base?: string): Promise<string[]> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const stale = entries
    .filter((entry) => entry.isDirectory())
    .filter((entry) => {
      const pid = folderOwner(entry.name, mark, base);
      return pid !== undefined && pid !== process.pid && !isRunning(pid);
    })
    .map((entry) => path.join(parent, entry.name));
  await Promise.all(stale.map((folder) => rm(folder, { recursive: true, force: true })));
  return stale;
}
