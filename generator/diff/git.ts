// The few git questions `toolguard diff` asks, through the git command line: where the
// repository is, whether a ref names a commit, the default branch's merge base, and one
// folder of a commit copied out into a temporary folder.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

/** git's own message when it fails, for an error that names the side. */
export class GitError extends Error {}

function git(cwd: string, args: readonly string[], input?: Buffer): Buffer {
  try {
    return execFileSync("git", args, { cwd, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1024 * 1024 * 1024, ...(input ? { input } : {}) });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    throw new GitError(stderr || (error as Error).message);
  }
}

/** The top folder of the repository `cwd` is in, or undefined outside one. */
export function repositoryRoot(cwd: string): string | undefined {
  try {
    return git(cwd, ["rev-parse", "--show-toplevel"]).toString("utf8").trim();
  } catch {
    return undefined;
  }
}

/** The commit `ref` names (full hash), or undefined when it names none. */
export function resolveCommit(root: string, ref: string): string | undefined {
  if (ref.startsWith("-")) return undefined;
  try {
    return git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`])
      .toString("utf8")
      .trim();
  } catch {
    return undefined;
  }
}

/**
 * The branch pull requests merge into: origin's HEAD when the clone knows it, else the first
 * of origin/main, origin/master, main, master that exists.
 */
export function defaultBranch(root: string): string | undefined {
  try {
    const head = git(root, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]).toString("utf8").trim();
    if (head) return head;
  } catch {
    // no origin/HEAD: fall through to the usual names
  }
  return ["origin/main", "origin/master", "main", "master"].find((name) => resolveCommit(root, name) !== undefined);
}

/** The best common ancestor of two refs; throws GitError when they have none. */
export function mergeBase(root: string, a: string, b: string): string {
  return git(root, ["merge-base", a, b]).toString("utf8").trim();
}

/** Whether `folder` (relative to the repository root, forward slashes) exists at `commit`. */
export function hasFolder(root: string, commit: string, folder: string): boolean {
  if (folder === "" || folder === ".") return true;
  return git(root, ["ls-tree", "-d", commit, "--", folder]).toString("utf8").trim() !== "";
}

/** Copies `folder` as it is at `commit` into `into` (keeping its relative path). */
export function extractFolder(root: string, commit: string, folder: string, into: string): void {
  mkdirSync(into, { recursive: true });
  const tar = git(root, ["archive", "--format=tar", commit, "--", folder === "" ? "." : folder]);
  try {
    execFileSync("tar", ["-x", "-f", "-", "-C", into], { input: tar, stdio: ["pipe", "ignore", "pipe"] });
  } catch (error) {
    throw new GitError(`cannot unpack ${folder} of ${commit.slice(0, 7)}: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`);
  }
}

/** A path relative to the repository root with forward slashes, as git names it. */
export function gitPath(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join("/");
}

/**
 * The `version` of a package.json at a commit (`file` relative to the repository root); undefined
 * when the file is not there or its version is not a plain x.y.z.
 */
export function packageVersionAt(root: string, commit: string, file: string): string | undefined {
  let text: string;
  try {
    text = git(root, ["show", `${commit}:${file}`]).toString("utf8");
  } catch {
    return undefined;
  }
  let version: unknown;
  try {
    version = (JSON.parse(text) as { version?: unknown }).version;
  } catch {
    return undefined;
  }
  return typeof version === "string" && /^\d+\.\d+\.\d+$/.test(version) ? version : undefined;
}
