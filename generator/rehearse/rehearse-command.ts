// `toolguard rehearse`: every tool of the chosen sets, read as `generate` reads them, rehearsed
// against the mistakes models make (rehearse.ts), printed weakest first for a terminal or as JSON.
import path from "node:path";
import type { ResolvedConfig } from "../config.ts";
import { InputError, InputErrors, UsageError } from "../errors.ts";
import { describeSet } from "../generate.ts";
import type { ToolDescription } from "../ir.ts";
import { emitSkipReason, lintSkipReason } from "../emit/emit-skip.ts";
import { removeLoadedModules } from "./load-tool.ts";
import { type RehearsedCase, type RehearsedTool, rehearseTool, type VERDICTS, weakCount } from "./rehearse.ts";

/** Cases per tool unless `--limit` says otherwise: every class the generator has, on a small schema, in a second or two. */
export const DEFAULT_LIMIT = 40;
export const DEFAULT_SEED = 1;

export interface RehearseRequest {
  /** The sets to read (already narrowed by `--set`). */
  readonly config: ResolvedConfig;
  /** `--tool` names; empty: every tool. */
  readonly tools: readonly string[];
  readonly seed: number;
  readonly limit: number;
  readonly json: boolean;
  readonly cwd: string;
}

export interface RehearseReport {
  readonly seed: number;
  readonly limit: number;
  readonly tools: readonly (RehearsedTool & { readonly set: string; readonly summary: Summary })[];
  /** The operations the reader skipped (as `generate` skips them): not rehearsed. */
  readonly skipped: readonly Skipped[];
  readonly summary: Summary;
}

interface Skipped {
  readonly set: string;
  readonly tool: string;
  readonly source: string;
  readonly reason: string;
}

interface Summary {
  readonly cases: number;
  readonly flagged: number;
  readonly repairable: number;
  readonly repaired: number;
  readonly missed: number;
  readonly misrepaired: number;
  readonly unrepaired: number;
}

/** The CLI's parsed options (cli.ts parses them, with every command's). */
export interface RehearseOptionValues {
  readonly tool?: readonly string[];
  readonly seed?: string;
  readonly limit?: string;
  readonly json?: boolean;
  readonly [other: string]: unknown;
}

/** What cli.ts lends the command: the help text, the config as `--set` narrows it, and its report of an internal error. */
export interface RehearseContext {
  readonly cwd: string;
  readonly help: string;
  readonly config: () => Promise<ResolvedConfig>;
  readonly internal: (error: unknown) => number;
}

/** Options of the other commands: refused here rather than silently ignored. */
const NOT_REHEARSE = ["ledger", "since", "watch", "strict", "no-cache", "quiet"] as const;

/** `toolguard rehearse` from the command line: 0 done, 1 the schemas cannot be read, 2 the command was used wrongly. */
export async function rehearseCommand(values: RehearseOptionValues, extra: readonly string[], context: RehearseContext): Promise<number> {
  const other = NOT_REHEARSE.find((name) => values[name] !== undefined);
  if (other !== undefined || extra.length > 0) {
    process.stderr.write(
      `toolguard: ${other !== undefined ? `--${other} is not an option of rehearse` : `unexpected argument "${extra[0]}"`}\n\n${context.help}`,
    );
    return 2;
  }
  try {
    const seed = wholeNumber("--seed", values.seed, DEFAULT_SEED, 0, 2 ** 32 - 1);
    const limit = wholeNumber("--limit", values.limit, DEFAULT_LIMIT, 1, 100_000);
    const config = await context.config();
    return await rehearse({ config, tools: values.tool ?? [], seed, limit, json: values.json === true, cwd: context.cwd });
  } catch (error) {
    if (error instanceof InputErrors || error instanceof InputError) {
      process.stderr.write(`toolguard rehearse: the schemas could not be read.\n${error.format()}\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`toolguard: ${error.message}\n`);
      return 2;
    }
    return context.internal(error);
  }
}

/** A `--seed` or `--limit` value: a whole number within bounds, else a usage error naming the option. */
export function wholeNumber(option: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max)
    throw new UsageError(`${option} takes a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return Number(text);
}

export async function rehearse(request: RehearseRequest): Promise<number> {
  const chosen: { set: string; tool: ToolDescription }[] = [];
  const known: string[] = [];
  const skipped: Skipped[] = [];
  for (const set of request.config.sets) {
    const described = await describeSet(set, request.config);
    for (const skip of described.skipped) {
      const file = path.relative(request.cwd, path.resolve(set.schemas, skip.source.file)) || skip.source.file;
      if (request.tools.length === 0 || request.tools.includes(skip.name))
        skipped.push({ set: set.packageName, tool: skip.name, source: file, reason: skip.reason });
    }
    for (const tool of described.tools) {
      // The tool's file as the user finds it: relative to the working directory, not to the schemas folder.
      const file = path.relative(request.cwd, path.resolve(set.schemas, tool.source.file)) || tool.source.file;
      const wanted = request.tools.length === 0 || request.tools.includes(tool.name);
      // What `generate` skips when it emits the tool (a pattern it cannot enforce) is skipped here too.
      const unserved = lintSkipReason(tool, request.config.strict);
      if (unserved !== undefined) {
        if (wanted) skipped.push({ set: set.packageName, tool: tool.name, source: file, reason: unserved });
        continue;
      }
      known.push(tool.name);
      if (wanted) chosen.push({ set: set.packageName, tool: { ...tool, source: { ...tool.source, file } } });
    }
  }
  // A tool named that the reader skipped is not rehearsed, and says why (as `generate` would).
  const unread = skipped.find((skip) => !known.includes(skip.tool));
  if (unread !== undefined && request.tools.length > 0)
    throw new UsageError(`--tool ${JSON.stringify(unread.tool)}: ${unread.source} has it, but it is skipped, as generate skips it: ${unread.reason}`);
  const unknown = request.tools.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const listed = known.length > 30 ? `${known.slice(0, 30).join(", ")} and ${known.length - 30} more` : known.join(", ");
    throw new UsageError(
      `--tool ${unknown.map((name) => JSON.stringify(name)).join(", ")}: no tool of the chosen sets has that name; the tools are: ${listed || "(none)"}`,
    );
  }
  const tools: RehearseReport["tools"][number][] = [];
  try {
    for (const { set, tool } of chosen) {
      // What stops emitting the tool (a reference fan-out in building its tables) skips it, as
      // `generate` skips it, rather than the whole set (Glean's adminsearch, round 21).
      const rehearsed = await rehearseTool(tool, request).catch((error: unknown) => {
        const reason = emitSkipReason(tool, error, request.config.strict);
        if (reason === undefined) throw error;
        skipped.push({ set, tool: tool.name, source: tool.source.file, reason });
        return undefined;
      });
      if (rehearsed !== undefined) tools.push({ set, ...rehearsed, summary: summarise(rehearsed.cases) });
    }
  } finally {
    removeLoadedModules();
  }
  // The weakest tools first (most weak cases), then by name: stable for a seed.
  tools.sort((a, b) => weakCount(b) - weakCount(a) || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  const report: RehearseReport = { seed: request.seed, limit: request.limit, tools, skipped, summary: summarise(tools.flatMap((tool) => tool.cases)) };
  process.stdout.write(request.json ? `${JSON.stringify(report, null, 2)}\n` : formatRehearsal(report));
  return 0;
}

function summarise(cases: readonly RehearsedCase[]): Summary {
  const count = (test: (entry: RehearsedCase) => boolean): number => cases.filter(test).length;
  return {
    cases: cases.length,
    flagged: count((entry) => entry.flagged),
    repairable: count((entry) => entry.repairable),
    repaired: count((entry) => entry.repaired),
    missed: count((entry) => entry.verdict === "missed"),
    misrepaired: count((entry) => entry.verdict === "misrepaired"),
    unrepaired: count((entry) => entry.verdict === "unrepaired"),
  };
}

/** A terminal's longest line for a sent call or a message before it is cut. */
const WIDTH = 160;

const LABEL: Readonly<Record<(typeof VERDICTS)[number], string>> = {
  missed: "MISSED     ",
  misrepaired: "MISREPAIRED",
  unrepaired: "UNREPAIRED ",
  stated: "stated     ",
  repaired: "repaired   ",
};

export function formatRehearsal(report: RehearseReport): string {
  const lines: string[] = [];
  for (const tool of report.tools) {
    lines.push(`${tool.tool} (${tool.source}, set ${tool.set}): ${summaryText(tool.summary)}`);
    if (tool.note !== undefined) lines.push(`  ${tool.note}`);
    if (tool.validCallErrors !== undefined) {
      lines.push(`    sent:     ${cut(JSON.stringify(tool.validCall))}`);
      for (const error of tool.validCallErrors) lines.push(`    envelope: ${cut(`${error.path || "/"}: ${error.message}`)}`);
    }
    for (const entry of tool.cases) {
      lines.push(`  ${LABEL[entry.verdict]} ${entry.mistake}`);
      lines.push(`    sent:     ${cut(entry.text ?? JSON.stringify(entry.args))}`);
      for (const error of shownErrors(entry)) lines.push(`    envelope: ${cut(`${error.path || "/"}: ${error.message}`)}`);
      if (entry.advice !== undefined) lines.push(`    schema:   ${entry.advice}`);
    }
    lines.push("");
  }
  if (report.skipped.length > 0) {
    lines.push(`not rehearsed: ${report.skipped.length} operation${report.skipped.length === 1 ? "" : "s"} that generate skips:`);
    for (const skip of report.skipped) lines.push(`  ${skip.tool} (${skip.source}, set ${skip.set}): ${skip.reason}`);
    lines.push("");
  }
  lines.push(
    `${report.tools.length} tool${report.tools.length === 1 ? "" : "s"}, seed ${report.seed}, at most ${report.limit} case${report.limit === 1 ? "" : "s"} a tool: ${summaryText(report.summary)}`,
  );
  return `${lines.join("\n")}\n`;
}

function summaryText(summary: Summary): string {
  const share = (part: number, whole: number): string => (whole === 0 ? "-" : `${Math.round((100 * part) / whole)}%`);
  return `${summary.cases} cases, ${summary.flagged} flagged with the fix (${share(summary.flagged, summary.cases)}), ${summary.repaired} of ${summary.repairable} repaired in one round (${share(summary.repaired, summary.repairable)}); ${summary.missed} missed, ${summary.misrepaired} repaired to another call than meant, ${summary.unrepaired} flagged but not repaired`;
}

/** The errors about the case's place, or every error when none is there (a syntactic case has no place). */
function shownErrors(entry: RehearsedCase): RehearsedCase["errors"] {
  const expected = entry.expected;
  const at = expected.op === "text" ? [] : expected.op === "move" ? [expected.from, expected.to] : [expected.path];
  const there = entry.errors.filter((error) => at.includes(error.path));
  return there.length > 0 ? there : entry.errors;
}

function cut(text: string): string {
  const line = text.replaceAll("\n", "\\n");
  return line.length > WIDTH ? `${line.slice(0, WIDTH - 1)}…` : line;
}
