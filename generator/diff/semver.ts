// The version bump a generated package needs for a set of tool changes. The package's users
// are tool teams, so its API is the argument types and the resolvers `implement` demands:
//   major: any change breaking (or possibly breaking) for tool teams, a tool removed or renamed;
//   minor: what the guard accepts changed (tighter or looser), or a tool was added;
//   patch: wording only (descriptions, titles, examples, defaults);
//   none:  nothing changed.
// Below 1.0.0 the bumps shift down one place (major -> minor, minor and patch -> patch), as
// npm's caret ranges read 0.x versions: `bumpAt` decides that, for `generate` and `diff` alike.
import type { ToolDiff } from "./change.ts";

export type Bump = "major" | "minor" | "patch" | "none";

const ORDER: readonly Bump[] = ["none", "patch", "minor", "major"];

/** The bump a package needs for its tools' changes (rules at the top of this file). */
export function bumpFor(diffs: readonly ToolDiff[]): Bump {
  let bump: Bump = "none";
  const raise = (to: Bump): void => {
    if (ORDER.indexOf(to) > ORDER.indexOf(bump)) bump = to;
  };
  for (const diff of diffs) {
    if (diff.status === "unchanged") continue;
    if (diff.toolTeams !== "none" || diff.status === "removed" || diff.status === "renamed") raise("major");
    else if (diff.status === "added" || diff.changes.some((change) => change.kind !== "annotation")) raise("minor");
    else raise("patch");
  }
  return bump;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Whether `version` is a plain `x.y.z` version (no pre-release or build part). */
export function isPlainVersion(version: string): boolean {
  return SEMVER.test(version);
}

/**
 * The bump a package at `version` gets for changes that call for `bump` (from `bumpFor`). The one
 * place that decides it, so that `toolguard diff` names the bump `generate` applies: below 1.0.0
 * it shifts down one place (major -> minor; minor and patch -> patch), as npm's caret ranges read
 * 0.x versions (`^0.3.1` takes 0.3.2 but not 0.4.0).
 */
export function bumpAt(version: string, bump: Bump): Bump {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`not a plain x.y.z version: ${version}`);
  if (match[1] !== "0" || bump === "none") return bump;
  return bump === "major" ? "minor" : "patch";
}

/** `version` raised by what `bump` means for it (`bumpAt`). */
export function applyBump(version: string, bump: Bump): string {
  const effective = bumpAt(version, bump);
  let [major, minor, patch] = (SEMVER.exec(version) as RegExpExecArray).slice(1).map(Number) as [number, number, number];
  if (effective === "major") [major, minor, patch] = [major + 1, 0, 0];
  else if (effective === "minor") [minor, patch] = [minor + 1, 0];
  else if (effective === "patch") patch += 1;
  return `${major}.${minor}.${patch}`;
}
