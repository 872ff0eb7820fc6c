// The generation pipeline, all in memory: one schema set in, one package's files out.
//
//   set --read--> ToolDescription[] --emit--> each tool's files + runtime + index/manifest + extras --> sorted files
//
// Each step is a function of its inputs alone, and nothing here touches the disk, so `check`
// and `generate` share every byte. How a step's result is obtained faster (a cache entry, the
// precompiled runtime, a worker thread) is not this file's business: generator/speed/ passes its
// own `Emitters` (speed/generate-set.ts), which must return what `directEmitters` would.
// The reader and the emitters are loaded on first use: they pull in TypeScript, prettier and ajv.
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import { InputError, InputErrors } from "./errors.ts";
import { emitSkipReason } from "./emit/emit-skip.ts";
import type { EmittedFile } from "./emit/runtime.ts";
import { withSharedModulesOnce } from "./emit/shared-modules.ts";
import { uniqueNames } from "./emit/unique-names.ts";
import type { PackageTool } from "./emit/package-files.ts";
import type { SkippedTool, ToolDescription } from "./ir.ts";
import { mapLimit } from "./map-limit.ts";

export interface GeneratedPackage {
  readonly set: ResolvedSet;
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  /** What the reader says about the set as a whole (ReadResult.notes). */
  readonly notes?: readonly string[];
  /** Every file of the package, sorted by path. */
  readonly files: readonly EmittedFile[];
}

/** A set read and described: its tools sorted by name (names unique), and what was skipped and why. */
export interface DescribedSet {
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  readonly notes?: readonly string[];
}

/** One tool's files, or the error that stopped them (an InputError keeps its location). */
export type ToolOutcome = { readonly ok: true; readonly value: readonly EmittedFile[] } | { readonly ok: false; readonly error: unknown };

/** Where each kind of file comes from. */
export interface Emitters {
  /** Each tool's files, in the tools' order. */
  tools(tools: readonly ToolDescription[]): Promise<readonly ToolOutcome[]>;
  /** The runtime every package carries (from toolguard's sources alone). */
  runtime(): Promise<readonly EmittedFile[]>;
  /** The package's index and manifest, which read only the set and each tool's name and references. */
  packageFiles(set: ResolvedSet, tools: readonly PackageTool[]): Promise<readonly EmittedFile[]>;
  /** The extras the set lists (templates/extras/<name>, at extras/<name>/ in the package); none for an empty list. */
  extras(names: readonly string[]): Promise<readonly EmittedFile[]>;
}

/** How many tools are emitted at once; emission is mostly CPU, partly json-schema-to-typescript's async work. */
export const CONCURRENCY = 8;

/** The emitters themselves, on this thread. */
export const directEmitters: Emitters = {
  async tools(tools) {
    const { emitTool } = await import("./emit/tool-files.ts");
    return mapLimit(tools, CONCURRENCY, (tool) =>
      emitTool(tool).then(
        (value): ToolOutcome => ({ ok: true, value }),
        (error: unknown): ToolOutcome => ({ ok: false, error }),
      ),
    );
  },
  async runtime() {
    return (await import("./emit/runtime.ts")).runtimeFiles();
  },
  async packageFiles(set, tools) {
    return (await import("./emit/package-files.ts")).emitPackageFiles(set, tools);
  },
  async extras(names) {
    if (names.length === 0) return [];
    const { transpileTemplates } = await import("./emit/runtime.ts");
    return names.flatMap((name) => transpileTemplates(`extras/${name}`));
  },
};

/** Reads the set's schemas into tool descriptions, sorted by name; two tools with one name are an error. */
export async function describeSet(set: ResolvedSet, config: Pick<ResolvedConfig, "allowNetwork" | "strict">): Promise<DescribedSet> {
  const { readSchemaSet } = await import("./read/index.ts");
  const read = await readSchemaSet(set.schemas, {
    ...config,
    entry: set.entry,
    defaultsOptional: set.defaultsOptional,
    unknownFormats: set.unknownFormats,
    trustServers: set.trustServers,
    argumentNames: set.argumentNames,
  });
  const sorted = [...read.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const { tools, skipped } = uniqueNames(sorted, { strict: config.strict });
  return { tools, skipped: [...read.skipped, ...skipped], notes: read.notes ?? [] };
}

/** Only what the index, catalog and manifest read of each tool. */
export function packageTools(tools: readonly ToolDescription[]): PackageTool[] {
  return tools.map(({ name, description, inputSchema, references, http }) => ({ name, description, inputSchema, references, http }));
}

/**
 * Every file of the package for `tools`, sorted by path. Every tool is emitted before any error
 * is thrown, so that one run reports every bad tool (InputErrors, in the tools' order).
 */
/** A package's files, and the tools that made it in: an OpenAPI operation whose tool cannot be emitted is skipped. */
export interface EmittedPackage {
  readonly files: EmittedFile[];
  /** The tools the files hold: `tools` less those skipped. */
  readonly tools: readonly ToolDescription[];
  /** Operations whose tool could not be emitted (a pattern that cannot run in linear time, ...), and why. */
  readonly skipped: readonly SkippedTool[];
}

export async function emitPackage(
  set: ResolvedSet,
  tools: readonly ToolDescription[],
  emitters: Emitters = directEmitters,
  options: { readonly strict?: boolean } = {},
): Promise<EmittedPackage> {
  const [outcomes, runtime, packaged, extras] = await Promise.all([
    emitters.tools(tools),
    emitters.runtime(),
    emitters.packageFiles(set, packageTools(tools)),
    emitters.extras(set.extras ?? []),
  ]);
  const errors: InputError[] = [];
  const toolFiles: EmittedFile[] = [];
  const kept: ToolDescription[] = [];
  const skipped: SkippedTool[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    const tool = tools[index] as ToolDescription;
    if (outcome.ok) {
      toolFiles.push(...outcome.value);
      kept.push(tool);
      continue;
    }
    const reason = emitSkipReason(tool, outcome.error, options.strict);
    if (reason !== undefined) skipped.push({ name: tool.name, source: tool.source, reason });
    else if (outcome.error instanceof InputError) errors.push(outcome.error);
    else if (outcome.error instanceof InputErrors) errors.push(...outcome.error.errors);
    else throw outcome.error;
  }
  if (errors.length > 0) throw new InputErrors(errors);
  // The index and manifest list the tools there are: made again without the skipped ones.
  const packageFiles = skipped.length === 0 ? packaged : await emitters.packageFiles(set, packageTools(kept));
  const files = [...runtime, ...packageFiles, ...extras, ...withSharedModulesOnce(toolFiles)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, tools: kept, skipped };
}

/** The pipeline, step by step on this thread: what generator/speed/ makes faster, never different. */
export async function generatePackage(
  set: ResolvedSet,
  config: Pick<ResolvedConfig, "allowNetwork" | "strict">,
  emitters: Emitters = directEmitters,
): Promise<GeneratedPackage> {
  const described = await describeSet(set, config);
  const emitted = await emitPackage(set, described.tools, emitters, { strict: config.strict });
  return { set, ...described, tools: emitted.tools, skipped: [...described.skipped, ...emitted.skipped], files: emitted.files };
}
