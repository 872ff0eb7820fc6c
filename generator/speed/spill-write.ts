// One file written into a spill folder (spill.ts), by whichever thread made its text: the emit
// worker that made a tool's files writes them itself, so that the text never crosses to the main
// thread, which would only write it out (Elasticsearch's description: a 900 KB shared module in
// almost every one of its 444 tools' answers).
//
// Two workers may make one path at once: a shared module two tools import. Each writes a name of
// its own, then links it into place, which only the first can do, so the file at a path is always
// whole and written once. A later text at that path is compared with the one on disk: the same
// bytes share the file; other bytes stay in memory, so that withSharedModulesOnce still sees two
// texts at one path and stops (emit/shared-modules.ts).
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";
import type { EmittedFile } from "../emit/runtime.ts";

/** A file whose text is on disk at `spilledAt`: what a worker answers instead of the text. */
export interface SpilledRecord {
  readonly path: string;
  readonly spilledAt: string;
}

/**
 * Writes `file` to `folder` unless the same text is there already. Its record when the text is on
 * disk; undefined when it stays in memory: other bytes at that path, or a write that failed (a
 * full disk: the package's own write then reports that disk's problem with its fix).
 */
export function spillFile(folder: string, file: EmittedFile): SpilledRecord | undefined {
  const target = path.join(folder, file.path);
  const record = { path: file.path, spilledAt: target };
  const content = file.content;
  if (sameText(target, content)) return record;
  const own = `${target}.${process.pid}-${threadId}.tmp`;
  try {
    try {
      writeFileSync(own, content);
    } catch (error) {
      // The first file in its folder: made then (folders are few, files many).
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(own, content);
    }
    linkSync(own, target);
    return record;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another thread linked its copy first: shared if the bytes are these.
    if (code === "EEXIST") return sameText(target, content) ? record : undefined;
    // A file system without hard links: the file itself, created only if no other is there.
    if (code === "EPERM" || code === "ENOTSUP" || code === "EXDEV") return createOnly(target, content) ? record : undefined;
    return undefined;
  } finally {
    removeQuietly(own);
  }
}

/** `files` with each one written to `folder` replaced by its record. */
export function spillFiles(folder: string, files: readonly EmittedFile[]): (EmittedFile | SpilledRecord)[] {
  return files.map((file) => spillFile(folder, file) ?? file);
}

/** Writes `target` unless it exists; whether it holds `content` now. */
function createOnly(target: string, content: string): boolean {
  try {
    writeFileSync(target, content, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return sameText(target, content);
    removeQuietly(target);
    return false;
  }
}

/** Removes `file` if it is there; a path that cannot hold it (a file where its folder would be) holds nothing to remove. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {}
}

/** Whether `target` exists and holds `content` (false when it does not exist). */
function sameText(target: string, content: string): boolean {
  try {
    return readFileSync(target, "utf8") === content;
  } catch {
    return false;
  }
}
