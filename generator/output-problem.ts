// What went wrong writing (or reading back) a set's output folder, said as the user's problem to
// fix, with the folder named: a file where the folder should be, no permission, a read-only or
// full disk. Anything else is not the user's and stays an internal error.
import path from "node:path";
import { InputError } from "./errors.ts";

const PROBLEMS: Readonly<Record<string, readonly [problem: string, fix: string]>> = {
  ENOTDIR: ["a file stands where the output folder, or a folder above it, should be", "remove or rename that file, or point the set's `out` at a folder"],
  EEXIST: ["a file stands where the output folder, or a folder above it, should be", "remove or rename that file, or point the set's `out` at a folder"],
  EISDIR: ["a folder stands where an output file should be", "remove that folder from the output, which toolguard owns"],
  EACCES: ["there is no permission to write there", "make the folder writable for this user, or point the set's `out` elsewhere"],
  EPERM: ["the operating system refused the write", "make the folder writable for this user, or point the set's `out` elsewhere"],
  EROFS: ["the file system is read-only", "point the set's `out` at a writable folder"],
  ENOSPC: ["the disk is full", "free some space, then run again"],
  EDQUOT: ["the disk quota is used up", "free some space, then run again"],
};

/** The error as an `InputError` naming the output folder, or undefined when it is not a problem of the user's disk. */
export function outputProblem(out: string, error: unknown, cwd: string, doing: "write" | "read" = "write"): InputError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code === undefined ? undefined : PROBLEMS[code];
  if (known === undefined) return undefined;
  const where = (error as NodeJS.ErrnoException).path;
  const at = where ? ` (${path.relative(cwd, where) || "."})` : "";
  return new InputError({ file: path.relative(cwd, out) || ".", pointer: "" }, `cannot ${doing} the output folder: ${known[0]}${at}, ${code}`, known[1]);
}
