// One schema set in, one generated package out, all in memory: read -> describe -> emit ->
// format. Nothing touches the disk here (but the cache), so `check` and `generate` share every
// byte. The reader and the emitters are loaded only when the cache cannot answer: they pull in
// TypeScript, prettier and ajv, which take longer to load than a cached run takes.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeError, type EncodedError, InputError, InputErrors } from "./errors.ts";
import type { SkippedTool, ToolDescription } from "./ir.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import type { GenerationCache } from "./cache.ts";
import type { EmittedFile } from "./emit/runtime.ts";
import type { CompiledToolTemplate } from "./emit/tool-template.ts";
import type { EmitTask } from "./emit/emit-worker.ts";
import { assertUniqueNames } from "./emit/unique-names.ts";
import { mapLimit } from "./map-limit.ts";
import { shippedPrecompiled } from "./precompiled.ts";
import { type Outcome, WorkerPool, workerCount } from "./worker-pool.ts";

export interface GeneratedPackage {
  readonly set: ResolvedSet;
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  /** Every file of the package, sorted by path. */
  readonly files: readonly EmittedFile[];
}

/** How many tools are emitted at once per thread; emission is mostly CPU, partly json-schema-to-typescript's async work. */
const CONCURRENCY = 8;

/** Fewer tools to emit than this are not worth starting worker threads for... */
const WORKER_THRESHOLD = 50;

/** ...unless the schemas are this large: then one worker starts loading the emitters at once. */
const LARGE_SET_BYTES = 1024 * 1024;

export async function generateSet(set: ResolvedSet, config: Pick<ResolvedConfig, "allowNetwork" | "strict">, cache?: GenerationCache): Promise<GeneratedPackage> {
  const setKey = await cache?.setKey(set, config);
  const whole = setKey ? await cache?.set(setKey) : undefined;
  if (whole) return { set, ...whole };
  // A large set starts a worker now, so that the emitters load while this thread reads.
  let pool = (await schemaBytes(set.schemas)) >= LARGE_SET_BYTES ? emitterPool(cache) : undefined;
  try {
    const { readSchemaSet } = await import("./read/index.ts");
    const read = await readSchemaSet(set.schemas, config);
    const tools = [...read.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    assertUniqueNames(tools);
    const cached = await mapLimit(tools, CONCURRENCY, async (tool) => cache?.tool(tool));
    const missing = tools.filter((_tool, index) => cached[index] === undefined);
    // Many tools are spread over worker threads (each loads the emitters once, ~1 s, so a few
    // tools stay on this thread unless `pool` already started loading them).
    const threads = workerCount();
    if (missing.length > WORKER_THRESHOLD && threads > 1) (pool ??= emitterPool(cache)).grow(threads);
    // Each tool's files go into the cache as they arrive, not all at the end, when nothing else
    // is left to run. The package files need only the tools' names: made while the workers emit.
    const stored: Promise<void>[] = [];
    const store = cache && ((tool: ToolDescription, files: readonly EmittedFile[]) => void stored.push(cache.storeTool(tool, files)));
    const [emitted, packaged] = await Promise.all([emitTools(missing, cache, pool, store), packageFiles(set, tools, cache, pool)]);
    const errors: InputError[] = [];
    const perTool = [...cached];
    let at = 0;
    for (const [index, files] of cached.entries()) {
      if (files !== undefined) continue;
      const outcome = emitted[at++] as Outcome<readonly EmittedFile[]>;
      if (outcome.ok) perTool[index] = outcome.value;
      else if (outcome.error instanceof InputError) errors.push(outcome.error);
      else if (outcome.error instanceof InputErrors) errors.push(...outcome.error.errors);
      else throw outcome.error;
    }
    await Promise.all(stored);
    if (errors.length > 0) throw new InputErrors(errors);
    const files = [...packaged.files, ...perTool.flatMap((files) => files ?? [])];
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (cache && setKey && packaged.entries) {
      const entries = [...packaged.entries, ...(await Promise.all(tools.map((tool) => cache.toolEntry(tool))))];
      await cache.storeSet(setKey, { tools, skipped: read.skipped }, entries);
    }
    return { set, tools, skipped: read.skipped, files };
  } finally {
    pool?.close();
  }
}

/**
 * Emits each tool, in the tools' order: on the worker threads of `pool` when there is one, else
 * on this thread. Either way an error comes back as the tool's outcome, an InputError with its
 * location intact.
 */
async function emitTools(
  tools: readonly ToolDescription[],
  cache: GenerationCache | undefined,
  pool: EmitterPool | undefined,
  emitted?: (tool: ToolDescription, files: readonly EmittedFile[]) => void,
): Promise<Outcome<readonly EmittedFile[]>[]> {
  if (tools.length === 0) return [];
  const settled = (tool: ToolDescription, outcome: Outcome<readonly EmittedFile[]>): Outcome<readonly EmittedFile[]> => {
    if (outcome.ok) emitted?.(tool, outcome.value);
    return outcome;
  };
  if (pool) {
    return Promise.all(
      tools.map((tool) =>
        pool.run({ kind: "tool", tool }).then((outcome) => settled(tool, outcome.ok ? outcome : { ok: false, error: decodeError(outcome.error as EncodedError) })),
      ),
    );
  }
  const template = await toolTemplate(cache);
  const { useToolTemplate } = await import("./emit/tool-template.ts");
  useToolTemplate(template);
  const { emitTool } = await import("./emit/tool-files.ts");
  return mapLimit(tools, CONCURRENCY, (tool) =>
    emitTool(tool).then(
      (value) => settled(tool, { ok: true, value }),
      (error: unknown) => settled(tool, { ok: false, error }),
    ),
  );
}

type EmitterPool = WorkerPool<EmitTask, readonly EmittedFile[]>;

function emitterPool(cache: GenerationCache | undefined): EmitterPool {
  const script = new URL(`./emit/emit-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  const pool: EmitterPool = new WorkerPool(script, toolTemplate(cache));
  pool.grow(1);
  return pool;
}

/** A package-level task's files from a worker, ahead of the tools waiting there; its error rethrown. */
async function onWorker(pool: EmitterPool, task: EmitTask): Promise<readonly EmittedFile[]> {
  const outcome = await pool.run(task, { first: true });
  if (outcome.ok) return outcome.value;
  throw decodeError(outcome.error as EncodedError);
}

/** Bytes of every file under the schema folder (0 when it is missing: the reader says so). */
async function schemaBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const sizes = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => stat(path.join(entry.parentPath, entry.name)).then((info) => info.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/**
 * The compiled tool template, from the cache or the build (precompiled.ts) when either has it:
 * compiling it loads TypeScript.
 */
async function toolTemplate(cache: GenerationCache | undefined): Promise<CompiledToolTemplate> {
  const cached = await cache?.derived<CompiledToolTemplate>("tool-template");
  if (cached) return cached;
  const shipped = (await shippedPrecompiled())?.toolTemplate;
  // Stored either way: a re-run then reads one small entry, not the precompiled file and its key's sources.
  const template = shipped ?? (await import("./emit/tool-template.ts")).toolTemplate();
  await cache?.storeDerived("tool-template", template);
  return template;
}

/**
 * The runtime (which depends on toolguard alone: the build makes it, see precompiled.ts) and
 * the package's index and manifest, made on a worker of `pool` when there is one, so that this
 * thread stays free to feed the workers.
 */
async function packageFiles(
  set: ResolvedSet,
  tools: readonly ToolDescription[],
  cache: GenerationCache | undefined,
  pool: EmitterPool | undefined,
): Promise<{ readonly files: readonly EmittedFile[]; readonly entries?: readonly string[] }> {
  // Each key is hashed once: it names the cache entry to read, to write, and, for the set
  // entry, to refer to.
  const runtimeKey = cache ? `runtime-${await cache.emitterHash()}` : undefined;
  const indexKey = await cache?.packageKey(set, tools);
  const runtime = async (): Promise<readonly EmittedFile[]> => {
    const cached = runtimeKey ? await cache?.files(runtimeKey) : undefined;
    if (cached) return cached;
    const shipped = (await shippedPrecompiled())?.runtime;
    const files = shipped ?? (pool ? await onWorker(pool, { kind: "runtime" }) : (await import("./emit/runtime.ts")).runtimeFiles());
    if (cache && runtimeKey) await cache.storeFiles(runtimeKey, files);
    return files;
  };
  const index = async (): Promise<readonly EmittedFile[]> => {
    const cached = indexKey ? await cache?.files(indexKey) : undefined;
    if (cached) return cached;
    // Only what the index reads crosses to a worker, not every tool's schema.
    const names = tools.map(({ name, references }) => ({ name, references }));
    const files = pool ? await onWorker(pool, { kind: "package", set, tools: names }) : await (await import("./emit/package-files.ts")).emitPackageFiles(set, tools);
    if (cache && indexKey) await cache.storeFiles(indexKey, files);
    return files;
  };
  const extrasKey = cache && set.extras.length > 0 ? `extras-${await cache.emitterHash()}-${set.extras.join("+")}` : undefined;
  const [runtimeFiles, indexFiles, extraFiles] = await Promise.all([runtime(), index(), extras(set.extras, cache, extrasKey)]);
  const files = [...runtimeFiles, ...indexFiles, ...extraFiles];
  if (!cache || !runtimeKey || !indexKey) return { files };
  return { files, entries: [cache.filesEntry(runtimeKey), cache.filesEntry(indexKey), ...(extrasKey ? [cache.filesEntry(extrasKey)] : [])] };
}

/**
 * The extras a set lists: from the build's precompiled file, or compiled from templates/extras
 * (which loads TypeScript, as for the runtime); cached under the emitters' hash, which covers
 * the templates.
 */
async function extras(names: readonly string[], cache: GenerationCache | undefined, key: string | undefined): Promise<readonly EmittedFile[]> {
  if (names.length === 0) return [];
  const cached = key ? await cache?.files(key) : undefined;
  if (cached) return cached;
  const shipped = (await shippedPrecompiled())?.extras;
  const files = shipped
    ? shipped.filter((file) => names.some((name) => file.path.startsWith(`extras/${name}/`)))
    : await import("./emit/runtime.ts").then(({ transpileTemplates }) => names.flatMap((name) => transpileTemplates(`extras/${name}`)));
  if (cache && key) await cache.storeFiles(key, files);
  return files;
}
