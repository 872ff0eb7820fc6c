// The whole comparison of two sides, set by set: each set's changed tools, the version bump
// its package needs, and (with a ledger) the share of recent successful calls that would fail.
// This is what every output format renders and what `--fail-on` reads.
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import type { ToolDescription } from "../ir.ts";
import { type Impact, type ToolDiff, worst } from "./change.ts";
import { compareTools } from "./compare-tools.ts";
import { type ReplayResult, replayLedger } from "./ledger-replay.ts";
import type { Side } from "./read-side.ts";
import { applyBump, type Bump, bumpAt, bumpFor } from "./semver.ts";

export interface SetReport {
  /** The set's schema folder. */
  readonly schemas: string;
  /**
   * The version bump the set's package needs: for the package's version at the base when it is
   * known (`version`), the one `generate` applies (`bumpAt`: below 1.0.0 one place lower);
   * otherwise what the changes call for in a package at 1.0.0 or later.
   */
  readonly bump: Bump;
  /** The package's version at the base and the version the bump gives, when the base has one. */
  readonly version?: { readonly base: string; readonly next: string };
  /** The tools that changed (added, removed, renamed, changed), the most severe first, then by name. */
  readonly tools: readonly ToolDiff[];
  /** How many tools are the same on both sides. */
  readonly unchanged: number;
  /** Per changed tool, its recent successful calls replayed against the new schema (with `--ledger`). */
  readonly ledger?: Readonly<Record<string, ReplayResult>>;
}

export interface DiffReport {
  readonly base: string;
  readonly head: string;
  readonly sets: readonly SetReport[];
  /** The strongest impact of any change, per audience. */
  readonly toolTeams: Impact;
  readonly models: Impact;
}

export interface DiffOptions {
  readonly ledger?: readonly LedgerEntry[];
  /** Per set (by position), the generated package's version at the base, when known. */
  readonly baseVersions?: readonly (string | undefined)[];
  readonly recentCalls?: number;
}

/** Compares two sides set by set (by position in the config; one set each for two folders). */
export function diffSides(base: Side, head: Side, options: DiffOptions = {}): DiffReport {
  const sets: SetReport[] = [];
  const count = Math.max(base.sets.length, head.sets.length);
  for (let index = 0; index < count; index++) {
    const before = base.sets[index];
    const after = head.sets[index];
    const baseVersion = options.baseVersions?.[index];
    sets.push(diffSet(after?.schemas ?? before?.schemas ?? "", before?.tools ?? [], after?.tools ?? [], { ...options, baseVersion }));
  }
  let toolTeams: Impact = "none";
  let models: Impact = "none";
  for (const set of sets) {
    for (const tool of set.tools) {
      toolTeams = worst(toolTeams, tool.toolTeams);
      models = worst(models, tool.models);
    }
  }
  return { base: base.name, head: head.name, sets, toolTeams, models };
}

export interface SetDiffOptions extends DiffOptions {
  /** The set's package version at the base: the bump is then the one applied to it. */
  readonly baseVersion?: string | undefined;
}

/** Compares one set's tools; with a ledger, replays its recent successful calls too. */
export function diffSet(schemas: string, before: readonly ToolDescription[], after: readonly ToolDescription[], options: SetDiffOptions = {}): SetReport {
  const all = compareTools(before, after);
  // Most severe first, so that a long list (or a cut comment) starts with what needs a decision.
  const tools = all.filter((tool) => tool.status !== "unchanged").sort((x, y) => severity(y) - severity(x) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const called = bumpFor(all);
  const base = options.baseVersion;
  const report: SetReport =
    base === undefined
      ? { schemas, bump: called, tools, unchanged: all.length - tools.length }
      : { schemas, bump: bumpAt(base, called), version: { base, next: applyBump(base, called) }, tools, unchanged: all.length - tools.length };
  if (!options.ledger) return report;
  const replay = replayLedger(options.ledger, tools, new Map(after.map((tool) => [tool.name, tool])), options.recentCalls);
  return { ...report, ledger: Object.fromEntries(replay) };
}

const RANK = { none: 0, possibly: 1, breaking: 2 } as const;

function severity(tool: ToolDiff): number {
  return RANK[tool.toolTeams] * 3 + RANK[tool.models] * 3 + (tool.status === "added" ? 0 : 1);
}

/** Whether the report meets a `--fail-on` policy. `possibly` counts: a gate must not pass what it cannot clear. */
export function meetsPolicy(report: DiffReport, policy: "breaking-for-models" | "breaking-for-tool-teams"): boolean {
  return (policy === "breaking-for-models" ? report.models : report.toolTeams) !== "none";
}

/** The bump as reports print it: with the versions when known, else with what 0.x packages get. */
export function describeBump(set: SetReport): string {
  if (set.version) return `${set.bump} (${set.version.base} -> ${set.version.next})`;
  const below = set.bump === "none" ? set.bump : bumpAt("0.1.0", set.bump);
  return below === set.bump ? set.bump : `${set.bump} (${below} below 1.0.0)`;
}
