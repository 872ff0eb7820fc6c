// One schema set in, one generated package out, all in memory: read -> describe -> emit ->
// format. Nothing touches the disk here (but the cache), so `check` and `generate` share every
// byte. The reader and the emitters are loaded only when the cache cannot answer: they pull in
// TypeScript, prettier and ajv, which take longer to load than a cached run takes.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeError, type EncodedError, InputError, InputErrors } from "./errors.ts";
import type { SkippedTool, ToolDescription } from "./ir.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import type { GenerationCache } from "./cache.ts";
import type { EmittedFile } from "./emit/runtime.ts";
import type { CompiledToolTemplate } from "./emit/tool-template.ts";
import { assertUniqueNames } from "./emit/unique-names.ts";
import { mapLimit } from "./map-limit.ts";
import { mapInWorkers, type Outcome, workerCount } from "./worker-pool.ts";

export interface GeneratedPackage {
  readonly set: ResolvedSet;
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  /** Every file of the package, sorted by path. */
  readonly files: readonly EmittedFile[];
}

/** How many tools are emitted at once per thread; emission is mostly CPU, partly prettier's async work. */
const CONCURRENCY = 8;

/** Fewer tools to emit than this are not worth starting worker threads for. */
const WORKER_THRESHOLD = 50;

export async function generateSet(set: ResolvedSet, config: Pick<ResolvedConfig, "allowNetwork" | "strict">, cache?: GenerationCache): Promise<GeneratedPackage> {
  const setKey = await cache?.setKey(set, config);
  const whole = setKey ? await cache?.set(setKey) : undefined;
  if (whole) return { set, ...whole };
  const { readSchemaSet } = await import("./read/index.ts");
  const read = await readSchemaSet(set.schemas, config);
  const tools = [...read.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  assertUniqueNames(tools);
  const cached = await mapLimit(tools, CONCURRENCY, async (tool) => cache?.tool(tool));
  const missing = tools.filter((_tool, index) => cached[index] === undefined);
  // The package files need only the tools' names: make them while the workers emit.
  const [emitted, packaged] = await Promise.all([emitTools(missing, cache), packageFiles(set, tools, cache)]);
  const errors: InputError[] = [];
  const perTool = [...cached];
  let at = 0;
  for (const [index, files] of cached.entries()) {
    if (files !== undefined) continue;
    const outcome = emitted[at++] as Outcome<EmittedFile[]>;
    if (outcome.ok) perTool[index] = outcome.value;
    else if (outcome.error instanceof InputError) errors.push(outcome.error);
    else if (outcome.error instanceof InputErrors) errors.push(...outcome.error.errors);
    else throw outcome.error;
  }
  if (errors.length > 0) throw new InputErrors(errors);
  if (cache) await mapLimit(missing, CONCURRENCY, (tool, index) => cache.storeTool(tool, (emitted[index] as { value: EmittedFile[] }).value));
  const files = [...packaged, ...perTool.flatMap((files) => files ?? [])];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (cache && setKey) await cache.storeSet(setKey, { tools, skipped: read.skipped, files });
  return { set, tools, skipped: read.skipped, files };
}

/**
 * Emits each tool, in the tools' order. A large set is spread over worker threads (each loads
 * the emitters once, ~1 s, so a small set stays on this thread); either way an error comes back
 * as the tool's outcome, an InputError with its location intact.
 */
async function emitTools(tools: readonly ToolDescription[], cache: GenerationCache | undefined): Promise<Outcome<EmittedFile[]>[]> {
  if (tools.length === 0) return [];
  const threads = workerCount();
  if (tools.length > WORKER_THRESHOLD && threads > 1) {
    const script = new URL(`./emit/emit-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    const outcomes = await mapInWorkers<ToolDescription, EmittedFile[]>(tools, script, threads, toolTemplate(cache));
    return outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: decodeError(outcome.error as EncodedError) }));
  }
  const template = await toolTemplate(cache);
  const { useToolTemplate } = await import("./emit/tool-template.ts");
  useToolTemplate(template);
  const { emitTool } = await import("./emit/tool-files.ts");
  return mapLimit(tools, CONCURRENCY, (tool) =>
    emitTool(tool).then(
      (value): Outcome<EmittedFile[]> => ({ ok: true, value }),
      (error: unknown): Outcome<EmittedFile[]> => ({ ok: false, error }),
    ),
  );
}

/** The compiled tool template, from the cache when it has it: compiling it loads TypeScript. */
async function toolTemplate(cache: GenerationCache | undefined): Promise<CompiledToolTemplate> {
  const cached = await cache?.derived<CompiledToolTemplate>("tool-template");
  if (cached) return cached;
  const { toolTemplate: compile } = await import("./emit/tool-template.ts");
  const template = compile();
  await cache?.storeDerived("tool-template", template);
  return template;
}

/** The runtime (which depends on toolguard alone) and the package's index and manifest. */
async function packageFiles(set: ResolvedSet, tools: readonly ToolDescription[], cache: GenerationCache | undefined): Promise<readonly EmittedFile[]> {
  const runtimeKey = await cache?.emitterHash();
  const packageKey = await cache?.packageKey(set, tools);
  let runtime = runtimeKey ? await cache?.files(`runtime-${runtimeKey}`) : undefined;
  if (!runtime) {
    const { runtimeFiles } = await import("./emit/runtime.ts");
    runtime = runtimeFiles();
    if (cache && runtimeKey) await cache.storeFiles(`runtime-${runtimeKey}`, runtime);
  }
  let index = packageKey ? await cache?.files(packageKey) : undefined;
  if (!index) {
    const { emitPackageFiles } = await import("./emit/package-files.ts");
    index = await emitPackageFiles(set, tools);
    if (cache && packageKey) await cache.storeFiles(packageKey, index);
  }
  return [...runtime, ...index];
}
