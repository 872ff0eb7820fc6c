// `version: { from: "schema-diff", base }` in a set's config, worked out into a version before
// generation: the version of the generated package.json at the git ref `base`, raised by the
// bump `toolguard diff` finds between the set's schemas there and in the working tree. Nothing
// but those inputs decides it (no clock, no registry), so `generate` and `check` agree, and a
// re-run gives the same version. With `base` the branch pull requests merge into, a pull
// request carries its own bump, and after the merge the base holds that version itself.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ResolvedConfig, ResolvedSet, VersionFromDiff } from "../config.ts";
import { UsageError } from "../errors.ts";
import { diffSet } from "./diff-report.ts";
import { gitPath, packageVersionAt, repositoryRoot, resolveCommit } from "./git.ts";
import { readSide } from "./read-side.ts";
import type { Bump } from "./semver.ts";

const DEFAULT_INITIAL = "0.1.0";

/** The config with each set's version rule replaced by the version it gives. */
export async function resolvePackageVersions(config: ResolvedConfig, cwd: string): Promise<ResolvedConfig> {
  if (!config.sets.some((set) => typeof set.version === "object")) return config;
  const sets: ResolvedSet[] = [];
  for (const set of config.sets) {
    sets.push(typeof set.version === "object" ? { ...set, version: (await versionFromDiff(set, set.version, config.strict, cwd)).version } : set);
  }
  return { ...config, sets };
}

export interface DerivedVersion {
  readonly version: string;
  readonly baseVersion: string | undefined;
  readonly bump: Bump;
}

/** The version one set's rule gives, with the base version and the bump it came from. */
export async function versionFromDiff(set: ResolvedSet, rule: VersionFromDiff, strict: boolean, cwd: string): Promise<DerivedVersion> {
  const where = `the version of ${set.packageName} in ${path.relative(cwd, set.out) || "."} (from: "schema-diff")`;
  const root = repositoryRoot(cwd);
  if (!root) throw new UsageError(`${where}: ${cwd} is not in a git repository`);
  const commit = resolveCommit(root, rule.base);
  if (!commit) throw new UsageError(`${where}: base "${rule.base}" names no commit`);
  // A package generated before versions were derived says 0.0.0: it starts from there.
  const baseVersion = packageVersionAt(root, commit, `${gitPath(root, set.out)}/package.json`);
  if (baseVersion === undefined) return { version: rule.initial ?? DEFAULT_INITIAL, baseVersion, bump: "none" };
  const scratch = mkdtempSync(path.join(tmpdir(), "toolguard-version-"));
  try {
    const common = { sets: [set], repoRoot: root, strict };
    const [before, after] = await Promise.all([
      readSide({ label: "base", source: { kind: "git", ref: rule.base, commit }, scratch: path.join(scratch, "base"), ...common }),
      readSide({ label: "head", source: { kind: "worktree" }, scratch: path.join(scratch, "head"), ...common }),
    ]);
    const report = diffSet(set.schemas, before.sets[0]?.tools ?? [], after.sets[0]?.tools ?? [], { baseVersion });
    return { version: report.version?.next ?? baseVersion, baseVersion, bump: report.bump };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
