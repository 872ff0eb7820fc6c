// One side of a diff, read through the same reader `generate` uses (so `$ref`s are resolved
// and dialects translated exactly as for generation): a git commit's schema folders copied out
// with `git archive`, the working tree's, or a plain folder. Any failure names the side.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ResolvedSet } from "../config.ts";
import { InputError, InputErrors } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { readSchemaSet } from "../read/index.ts";
import { extractFolder, GitError, gitPath, hasFolder } from "./git.ts";

export type SideSource =
  | { readonly kind: "git"; readonly ref: string; readonly commit: string }
  | { readonly kind: "worktree" }
  | { readonly kind: "folder"; readonly dir: string /** As the user named it. */; readonly shown: string };

export interface SideSet {
  /** The set's schema folder, relative to the repository (or the folder given). */
  readonly schemas: string;
  /** Undefined when the folder does not exist on this side (a set added or removed). */
  readonly tools: readonly ToolDescription[] | undefined;
}

export interface Side {
  readonly label: "base" | "head";
  /** How the side is named in reports: `origin/main (1a2b3c4)`, `working tree`, a folder. */
  readonly name: string;
  readonly sets: readonly SideSet[];
}

/** An error on one side, named so that the reader knows which state of the schemas to fix. */
export class SideError extends Error {
  readonly label: "base" | "head";
  readonly sideName: string;
  /** The schema folder the problem is in, when it is in one. */
  readonly folder: string | undefined;
  override readonly cause: Error;

  constructor(label: "base" | "head", sideName: string, folder: string | undefined, cause: Error) {
    super(`${label} (${sideName}): ${cause.message}`);
    this.name = "SideError";
    this.label = label;
    this.sideName = sideName;
    this.folder = folder;
    this.cause = cause;
  }

  format(): string {
    const inner = this.cause instanceof InputError || this.cause instanceof InputErrors ? this.cause.format() : this.cause.message;
    const folder = this.folder ? `, schema folder ${this.folder}` : "";
    return `${this.label} side (${this.sideName}${folder}):\n${inner
      .split("\n")
      .map((line) => `  ${line}`)
      .join("\n")}`;
  }
}

export interface ReadSideOptions {
  readonly label: "base" | "head";
  readonly source: SideSource;
  /** The sets to read (the config's), for git and working-tree sides. */
  readonly sets: readonly ResolvedSet[];
  readonly repoRoot: string | undefined;
  /** A fresh temporary folder this side may write into. */
  readonly scratch: string;
  readonly strict: boolean;
}

/** Reads one side's tools, set by set; any input error comes back as a SideError naming the side. */
export async function readSide(options: ReadSideOptions): Promise<Side> {
  const { label, source } = options;
  const name = source.kind === "git" ? `${source.ref} (${source.commit.slice(0, 7)})` : source.kind === "folder" ? source.shown : "working tree";
  let folder: string | undefined;
  try {
    if (source.kind === "folder") {
      folder = source.shown;
      if (!existsSync(source.dir) || !statSync(source.dir).isDirectory()) {
        throw new InputError({ file: source.dir, pointer: "" }, "no such folder", "name a folder of tool schemas, or a git ref");
      }
      return { label, name, sets: [{ schemas: source.shown, tools: await read(source.dir, options.strict) }] };
    }
    const sets: SideSet[] = [];
    for (const set of options.sets) {
      const relative = options.repoRoot ? gitPath(options.repoRoot, set.schemas) : set.schemas;
      folder = relative;
      if (source.kind === "worktree") {
        sets.push({ schemas: relative, tools: existsSync(set.schemas) ? await read(set.schemas, options.strict) : undefined });
        continue;
      }
      const root = options.repoRoot as string;
      if (!hasFolder(root, source.commit, relative)) {
        sets.push({ schemas: relative, tools: undefined });
        continue;
      }
      const into = path.join(options.scratch, String(sets.length));
      extractFolder(root, source.commit, relative, into);
      sets.push({ schemas: relative, tools: await read(path.join(into, relative), options.strict) });
    }
    return { label, name, sets };
  } catch (error) {
    if (error instanceof InputError || error instanceof InputErrors || error instanceof GitError) throw new SideError(label, name, folder, error);
    throw error;
  }
}

async function read(folder: string, strict: boolean): Promise<ToolDescription[]> {
  return [...(await readSchemaSet(folder, { allowNetwork: false, strict })).tools];
}
