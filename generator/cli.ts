#!/usr/bin/env node
// The `toolguard` command. Exit codes: 0 done, 1 the schemas (or the generated output) need
// fixing, 2 the command itself was used wrongly.
import path from "node:path";
import { parseArgs } from "node:util";
import { GenerationCache } from "./speed/cache.ts";
import { compareWithDisk } from "./check.ts";
import { loadConfig, type ResolvedConfig, type ResolvedSet } from "./config.ts";
import { InputError, InputErrors, UsageError } from "./errors.ts";
import { outputProblem } from "./output-problem.ts";
import type { GeneratedPackage } from "./generate.ts";
import { generateSet } from "./speed/generate-set.ts";
import { writePackage } from "./write-output.ts";
import { skipLines, warningLines } from "./read-summary.ts";
import { NO_TOOL } from "./read/no-tool.ts";
import { toolguardVersion } from "./version.ts";
import { missingRuntimeDependencies } from "./consumer-dependencies.ts";
import { strictReport } from "./strict-report.ts";
import { report } from "./report-command.ts";
import { schemaAdvice } from "./advice/advice.ts";
import { adviceLines } from "./advice/advice-lines.ts";
import { HELP } from "./cli-help.ts";

// Throws on an unknown option or a missing value; main turns that into a usage error.
function parseCliArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      set: { type: "string", multiple: true },
      strict: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      json: { type: "boolean" },
      markdown: { type: "boolean" },
      html: { type: "string" },
      "fail-above": { type: "string" },
      schemas: { type: "string" },
      ledger: { type: "string" },
      since: { type: "string" },
      tool: { type: "string", multiple: true },
      seed: { type: "string" },
      limit: { type: "string" },
      "no-cache": { type: "boolean" },
      watch: { type: "boolean", short: "w" },
      help: { type: "boolean", short: "h" },
    },
  });
}

export async function main(argv: readonly string[], cwd: string = process.cwd()): Promise<number> {
  // `diff` has options of its own; it parses them itself.
  if (argv[0] === "diff") return (await import("./diff/diff-command.ts")).diffCommand(argv.slice(1), cwd);
  if (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "version") {
    process.stdout.write(`toolguard ${toolguardVersion()}\n`);
    return 0;
  }
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`toolguard: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const [command, ...extra] = parsed.positionals;
  if (parsed.values.help || command === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === "report") {
    if (parsed.values.set || parsed.values.watch || parsed.values.config) {
      process.stderr.write(`toolguard: report reads a ledger; --set, --watch and --config go with generate and check\n\n${HELP}`);
      return 2;
    }
    const { json, markdown, html, since, schemas } = parsed.values;
    return report(
      parsed.values.ledger === undefined ? extra : [parsed.values.ledger, ...extra],
      { json, markdown, html, since, schemas, failAbove: parsed.values["fail-above"] },
      cwd,
    );
  }
  for (const option of ["markdown", "html", "fail-above", "schemas"] as const)
    if (parsed.values[option] !== undefined) {
      process.stderr.write(`toolguard: --${option} is an option of report, not of ${command ?? "no command"}\n\n${HELP}`);
      return 2;
    }
  if (command === "rehearse") {
    const config = async () => selectSets(await loadConfig(cwd, parsed.values.config), parsed.values.set ?? [], cwd);
    return (await import("./rehearse/rehearse-command.ts")).rehearseCommand(parsed.values, extra, { cwd, help: HELP, config, internal: reportError });
  }
  const rehearseOnly = (["tool", "seed", "limit"] as const).find((name) => parsed.values[name] !== undefined);
  if (rehearseOnly !== undefined) {
    process.stderr.write(`toolguard: --${rehearseOnly} is an option of rehearse, not of ${command ?? "no command"}\n\n${HELP}`);
    return 2;
  }
  if (parsed.values.ledger !== undefined) {
    process.stderr.write(`toolguard: --ledger is an option of report (and diff), not of ${command ?? "no command"}\n\n${HELP}`);
    return 2;
  }
  if (command !== "generate" && command !== "check") {
    process.stderr.write(`toolguard: ${command ? `unknown command "${command}"` : "no command given"}\n\n${HELP}`);
    return 2;
  }
  if (extra.length > 0) {
    process.stderr.write(`toolguard: unexpected argument "${extra[0]}"\n\n${HELP}`);
    return 2;
  }
  if (parsed.values.watch && command !== "generate") {
    process.stderr.write(`toolguard: --watch goes with generate only\n\n${HELP}`);
    return 2;
  }
  const say = (text: string): void => {
    if (!parsed.values.quiet) process.stdout.write(`${text}\n`);
  };
  try {
    const loaded = selectSets(await loadConfig(cwd, parsed.values.config), parsed.values.set ?? [], cwd);
    const strictConfig: ResolvedConfig = parsed.values.strict ? { ...loaded, strict: true } : loaded;
    const cache = parsed.values["no-cache"]
      ? undefined
      : new GenerationCache(path.join(strictConfig.file ? path.dirname(strictConfig.file) : cwd, ".toolguard", "cache"));
    if (parsed.values.watch) {
      const { watchAndGenerate } = await import("./watch.ts");
      const warn = (text: string): void => void process.stderr.write(`${text}\n`);
      return await watchAndGenerate({ config: strictConfig, prepare: (config) => prepareVersions(config, cwd), cache, cwd, say, warn });
    }
    const config = await prepareVersions(strictConfig, cwd);
    // Generate every set before writing any, so one broken set leaves all output untouched.
    const started = performance.now();
    const packages: GeneratedPackage[] = [];
    for (const set of config.sets) packages.push(await generateSet(set, config, cache));
    return command === "generate" ? await write(packages, cwd, say, started, parsed.values.quiet === true) : await check(packages, cwd, say);
  } catch (error) {
    return reportError(error);
  }
}

/**
 * The sets `--set` names, in the config's order. A set is named by its packageName, or by its out
 * or schemas folder as the config writes it (relative to the config's folder; "./" and a trailing
 * "/" do not matter). A name no set answers to is a usage error that lists the names there are.
 */
function selectSets(config: ResolvedConfig, names: readonly string[], cwd: string): ResolvedConfig {
  if (names.length === 0) return config;
  const base = config.file ? path.dirname(config.file) : cwd;
  const namesOf = (set: ResolvedSet): string[] => [set.packageName, path.relative(base, set.out), path.relative(base, set.schemas)];
  const wanted = new Set<ResolvedSet>();
  for (const name of names) {
    const relative = path.isAbsolute(name) ? path.relative(base, name) : path.normalize(name).replace(/[\\/]+$/, "");
    const matching = config.sets.filter((set) => set.packageName === name || namesOf(set).includes(relative));
    if (matching.length === 0) {
      const known = config.sets.map((set) => `${set.packageName} (${path.relative(base, set.out) || "."})`).join(", ");
      throw new UsageError(`--set ${JSON.stringify(name)}: no schema set has that name; the sets are: ${known}`);
    }
    for (const set of matching) wanted.add(set);
  }
  return { ...config, sets: config.sets.filter((set) => wanted.has(set)) };
}

/** Versions derived from schema changes (`version: { from: "schema-diff" }`) need git and the reader: loaded only then. */
async function prepareVersions(config: ResolvedConfig, cwd: string): Promise<ResolvedConfig> {
  if (!config.sets.some((set) => typeof set.version === "object")) return config;
  return (await import("./diff/package-version.ts")).resolvePackageVersions(config, cwd);
}

async function write(packages: readonly GeneratedPackage[], cwd: string, say: (text: string) => void, started: number, quiet: boolean): Promise<number> {
  for (const [index, pkg] of packages.entries()) {
    let written: boolean;
    try {
      written = await writePackage(pkg.set.out, pkg.files);
    } catch (error) {
      const problem = outputProblem(pkg.set.out, error, cwd);
      if (problem === undefined) throw error;
      // writePackage swaps folders only once everything is staged: this set's output is as it was.
      const before = packages.slice(0, index).map((earlier) => path.relative(cwd, earlier.set.out) || ".");
      process.stderr.write(
        `toolguard: ${before.length === 0 ? "nothing was written" : `written before this: ${before.join(", ")}; nothing else was`}.\n${problem.format()}\n`,
      );
      return 1;
    }
    say(
      `${path.relative(cwd, pkg.set.out) || "."}: ${pkg.tools.length} tool${pkg.tools.length === 1 ? "" : "s"}, ${pkg.files.length} files${written ? "" : " (unchanged)"}`,
    );
    summariseSkips(pkg, say);
    const strict = strictReport(pkg.set.extras ?? [], pkg.tools);
    for (const line of strict.lines) say(line);
    for (const line of strict.warnings) process.stderr.write(`${line}\n`);
    const note = missingRuntimeDependencies(cwd, pkg.set.out, pkg.set.packageName, pkg.files);
    if (note) say(`  ${note}`);
    // Advice is about the schemas, not an error: on stderr beside the warnings, and quiet under -q.
    if (!quiet && pkg.set.advice !== false) {
      for (const line of adviceLines(schemaAdvice(pkg.tools, pkg.set.advice), path.relative(cwd, pkg.set.schemas) || ".")) process.stderr.write(`${line}\n`);
    }
  }
  say(`done in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

async function check(packages: readonly GeneratedPackage[], cwd: string, say: (text: string) => void): Promise<number> {
  let clean = true;
  for (const pkg of packages) {
    const where = path.relative(cwd, pkg.set.out) || ".";
    let result: Awaited<ReturnType<typeof compareWithDisk>>;
    try {
      result = await compareWithDisk(pkg.set.out, pkg.files);
    } catch (error) {
      const problem = outputProblem(pkg.set.out, error, cwd, "read");
      if (problem === undefined) throw error;
      process.stderr.write(`toolguard check: ${problem.format()}\n`);
      return 1;
    }
    if (result.stale.length + result.hashOnly.length + result.missing.length + result.extra.length === 0) {
      say(`${where}: up to date (${pkg.files.length} files)`);
      continue;
    }
    clean = false;
    for (const file of result.stale) process.stderr.write(`stale:   ${where}/${file.path}\n${indent(file.diff)}\n`);
    for (const file of result.missing) process.stderr.write(`missing: ${where}/${file}\n`);
    for (const file of result.extra) process.stderr.write(`extra:   ${where}/${file}\n`);
    if (result.hashOnly.length > 0) process.stderr.write(`${hashOnlyLine(where, result.hashOnly)}\n`);
  }
  if (!clean) process.stderr.write("toolguard check: generated output is out of date; run `npx toolguard generate` and commit the result\n");
  return clean ? 0 : 1;
}

function summariseSkips(pkg: GeneratedPackage, say: (text: string) => void): void {
  const notes = [...(pkg.notes ?? [])];
  // The reader's note covers what it read; tools skipped while being emitted are counted here.
  if (pkg.tools.length === 0 && !notes.some((note) => note.startsWith(NO_TOOL)))
    notes.push(`${NO_TOOL}every one of its ${pkg.skipped.length} operation${pkg.skipped.length === 1 ? " was" : "s were"} skipped (reasons below)`);
  for (const note of notes) {
    // An empty package is a warning, on stderr, naming the set: it is never what was meant.
    if (note.startsWith(NO_TOOL)) process.stderr.write(`toolguard: warning: ${pkg.set.schemas}: ${note}\n`);
    else say(`  ${note}`);
  }
  for (const line of [...warningLines(pkg.tools), ...skipLines(pkg.skipped)]) say(`  ${line}`);
}

/** Files that differ only in the header's source hash: one line, after the real changes. */
function hashOnlyLine(where: string, files: readonly string[]): string {
  const shown = files
    .slice(0, 5)
    .map((file) => `${where}/${file}`)
    .join(", ");
  return `source hash only: ${files.length === 1 ? "1 file differs" : `${files.length} files differ`} only in the header's sha256 (a file they are generated from changed): ${shown}${files.length > 5 ? ` and ${files.length - 5} more` : ""}`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

function reportError(error: unknown): number {
  if (error instanceof InputErrors || error instanceof InputError) {
    process.stderr.write(`toolguard: nothing was written.\n${error.format()}\n`);
    return 1;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`toolguard: ${error.message}\n`);
    return 2;
  }
  // A side of a schema diff (a derived package version) that could not be read: named by side.
  if (error instanceof Error && error.name === "SideError" && typeof (error as { format?: unknown }).format === "function") {
    process.stderr.write(`toolguard: nothing was written.\n${(error as Error & { format(): string }).format()}\n`);
    return 1;
  }
  process.stderr.write(`toolguard: internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 70;
}
