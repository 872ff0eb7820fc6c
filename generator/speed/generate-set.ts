// The pipeline of generate.ts, made fast: the same steps and the same bytes, each result taken
// from wherever is cheapest. A whole set unchanged since the last run comes from the cache
// without reading a schema; otherwise each tool's files come from the cache or are emitted
// (spread over worker threads when there are many), and the runtime and tool template come from
// the cache, then the build's precompiled file, and only then from TypeScript.
// test/generator/cache.test.ts and determinism.test.ts hold the output to the plain pipeline's.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ResolvedConfig, ResolvedSet } from "../config.ts";
import type { EmittedFile } from "../emit/runtime.ts";
import type { CompiledToolTemplate } from "../emit/tool-template.ts";
import { SharedModuleCopies } from "../emit/shared-modules.ts";
import { decodeError, type EncodedError } from "../errors.ts";
import { CONCURRENCY, describeSet, directEmitters, type Emitters, emitPackage, type GeneratedPackage, type ToolOutcome } from "../generate.ts";
import type { ToolDescription } from "../ir.ts";
import { mapLimit } from "../map-limit.ts";
import type { GenerationCache } from "./cache.ts";
import type { EmitAnswer, EmitTask } from "./emit-worker.ts";
import { lowerHeapGrowth } from "./heap.ts";
import { shippedPrecompiled } from "./precompiled.ts";
import { inMemory, Spill } from "./spill.ts";
import { WorkerPool, workerCount } from "./worker-pool.ts";

/** Fewer tools to emit than this are not worth starting worker threads for... */
const WORKER_THRESHOLD = 50;

/** ...unless the schemas are this large: then one worker starts loading the emitters at once. */
const LARGE_SET_BYTES = 1024 * 1024;

type EmitterPool = WorkerPool<EmitTask, EmitAnswer>;

/** Generates one set: `generatePackage` (generate.ts) with the cache, the precompiled files and worker threads. */
export async function generateSet(
  set: ResolvedSet,
  config: Pick<ResolvedConfig, "allowNetwork" | "strict">,
  cache?: GenerationCache,
): Promise<GeneratedPackage> {
  const setKey = await cache?.setKey(set, config);
  const whole = setKey ? await cache?.set(setKey) : undefined;
  if (whole) return { set, ...whole };
  // A large set starts a worker now, so that the emitters load while this thread reads.
  const emitters = new FastEmitters(set.out, cache, (await schemaBytes(set.schemas)) >= LARGE_SET_BYTES);
  try {
    const described = await describeSet(set, config);
    const emitted = await emitPackage(set, described.tools, emitters, { strict: config.strict }).finally(() => emitters.stored());
    const { tools, files } = emitted;
    const skipped = [...described.skipped, ...emitted.skipped];
    const notes = described.notes;
    if (cache && setKey) {
      const entries = [...(await emitters.packageEntries(set, tools)), ...(await Promise.all(tools.map((tool) => cache.toolEntry(tool))))];
      await cache.storeSet(setKey, { tools, skipped, notes }, entries);
    }
    return { set, tools, skipped, notes, files };
  } finally {
    emitters.close();
  }
}

/** The pipeline's emitters behind the cache, the precompiled files and a worker pool. */
class FastEmitters implements Emitters {
  readonly #out: string;
  readonly #cache: GenerationCache | undefined;
  #pool: EmitterPool | undefined;
  /** Where the files go as they arrive, opened with the pool: the sets worth workers are those whose files weigh. */
  #spill: Promise<Spill | undefined> | undefined;
  /** Undoes lowerHeapGrowth once the workers are done. */
  #restoreHeapGrowth: (() => void) | undefined;
  readonly #storing: Promise<void>[] = [];

  constructor(out: string, cache: GenerationCache | undefined, startPool: boolean) {
    this.#out = out;
    this.#cache = cache;
    if (startPool) this.#pool = this.#startPool();
  }

  async tools(tools: readonly ToolDescription[]): Promise<readonly ToolOutcome[]> {
    const cache = this.#cache;
    const cached = await mapLimit(tools, CONCURRENCY, async (tool) => cache?.tool(tool));
    const missing = tools.filter((_tool, index) => cached[index] === undefined);
    // Many tools are spread over worker threads (each loads the emitters once, ~1 s, so a few
    // tools stay on this thread unless the pool already started loading them).
    const threads = workerCount();
    if (missing.length > WORKER_THRESHOLD && threads > 1) (this.#pool ??= this.#startPool()).grow(threads);
    const emitted = await this.#emit(missing);
    let at = 0;
    return cached.map((files): ToolOutcome => (files !== undefined ? { ok: true, value: files } : (emitted[at++] as ToolOutcome)));
  }

  async runtime(): Promise<readonly EmittedFile[]> {
    const key = await this.#runtimeKey();
    const cached = key ? await this.#cache?.files(key) : undefined;
    if (cached) return cached;
    const shipped = (await shippedPrecompiled())?.runtime;
    if (!shipped && this.#pool) return this.#onWorker({ kind: "runtime" }, key);
    const files = shipped ?? (await directEmitters.runtime());
    if (key) await this.#cache?.storeFiles(key, files);
    return files;
  }

  async packageFiles(set: ResolvedSet, tools: Parameters<Emitters["packageFiles"]>[1]): Promise<readonly EmittedFile[]> {
    const key = await this.#cache?.packageKey(set, tools);
    const cached = key ? await this.#cache?.files(key) : undefined;
    if (cached) return cached;
    // The catalog holds every tool's schemas again (35 MB on Elasticsearch's description): the worker spills it.
    if (this.#pool) return this.#onWorker({ kind: "package", set, tools }, key);
    const files = await directEmitters.packageFiles(set, tools);
    if (key) await this.#cache?.storeFiles(key, files);
    return files;
  }

  /**
   * The extras a set lists: from the cache, the build's precompiled file, or compiled from
   * templates/extras (which loads TypeScript, as for the runtime).
   */
  async extras(names: readonly string[]): Promise<readonly EmittedFile[]> {
    if (names.length === 0) return [];
    const key = await this.#extrasKey(names);
    const cached = key ? await this.#cache?.files(key) : undefined;
    if (cached) return cached;
    const shipped = (await shippedPrecompiled())?.extras;
    const files = shipped ? shipped.filter((file) => names.some((name) => file.path.startsWith(`extras/${name}/`))) : await directEmitters.extras(names);
    if (key) await this.#cache?.storeFiles(key, files);
    return files;
  }

  /** The cache entries holding the runtime's, the package's and the extras' files, as a set entry names them. */
  async packageEntries(set: ResolvedSet, tools: readonly ToolDescription[]): Promise<string[]> {
    const cache = this.#cache;
    if (!cache) return [];
    const extras = await this.#extrasKey(set.extras ?? []);
    return [
      cache.filesEntry((await this.#runtimeKey()) as string),
      cache.filesEntry(await cache.packageKey(set, tools)),
      ...(extras ? [cache.filesEntry(extras)] : []),
    ];
  }

  /** Resolves once every tool's files emitted this run are in the cache. */
  async stored(): Promise<void> {
    await Promise.all(this.#storing);
  }

  close(): void {
    this.#pool?.close();
    this.#restoreHeapGrowth?.();
  }

  async #extrasKey(names: readonly string[]): Promise<string | undefined> {
    return this.#cache && names.length > 0 ? `extras-${await this.#cache.emitterHash()}-${names.join("+")}` : undefined;
  }

  async #runtimeKey(): Promise<string | undefined> {
    return this.#cache ? `runtime-${await this.#cache.emitterHash()}` : undefined;
  }

  // Each tool's files go into the cache as they arrive, not all at the end, when nothing else is
  // left to run: on a worker, by the worker (emit-worker.ts), like the spill. Errors come back as
  // the tool's outcome, an InputError with its location intact.
  async #emit(tools: readonly ToolDescription[]): Promise<readonly ToolOutcome[]> {
    if (tools.length === 0) return [];
    const copies = new SharedModuleCopies();
    const cache = this.#cache;
    const pool = this.#pool;
    if (pool) {
      return Promise.all(
        tools.map(async (tool): Promise<ToolOutcome> => {
          const key = cache ? await cache.toolEntry(tool) : undefined;
          const files = await this.#placed({ kind: "tool", tool }, key, (files) => (cache as GenerationCache).storeTool(tool, files));
          return files.ok ? { ok: true, value: copies.keepFirst(files.value) } : files;
        }),
      );
    }
    const { useToolTemplate } = await import("../emit/tool-template.ts");
    useToolTemplate(await toolTemplate(cache));
    const outcomes = await directEmitters.tools(tools);
    return outcomes.map((outcome, index) => {
      if (!outcome.ok) return outcome;
      if (cache) this.#storing.push(cache.storeTool(tools[index] as ToolDescription, outcome.value));
      return { ok: true, value: copies.keepFirst(outcome.value) };
    });
  }

  /**
   * `task` run on a worker, which stores its files at the cache entry `entry` (cache.ts) and
   * writes them to the spill folder when one is open: its files as the worker named them, or its
   * error decoded. A store the worker could not make is made here, by `store`.
   */
  async #placed(task: EmitTask, entry: string | undefined, store: (files: readonly EmittedFile[]) => Promise<void>): Promise<ToolOutcome> {
    const spill = await this.#spill;
    const places = { store: entry === undefined ? undefined : this.#cache?.entryFile(entry), spill: spill?.folder };
    const outcome = await (this.#pool as EmitterPool).run({ ...task, ...places }, { first: task.kind !== "tool" });
    if (!outcome.ok) return { ok: false, error: decodeError(outcome.error as EncodedError) };
    const files = spill ? spill.adopt(outcome.value.files) : (outcome.value.files as readonly EmittedFile[]);
    if (places.store !== undefined && !outcome.value.stored) this.#storing.push(store(inMemory(files)));
    return { ok: true, value: files };
  }

  #startPool(): EmitterPool {
    const script = new URL(`./emit-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    this.#restoreHeapGrowth = lowerHeapGrowth();
    // No spill (the files stay in memory) is always a correct answer, so a failure to open one is not an error.
    this.#spill = Spill.open(this.#out).catch(() => undefined);
    const pool: EmitterPool = new WorkerPool(script, toolTemplate(this.#cache));
    pool.grow(1);
    return pool;
  }

  /** A package-level task's files from a worker, ahead of the tools waiting there, stored under `key`; its error rethrown. */
  async #onWorker(task: EmitTask, key: string | undefined): Promise<readonly EmittedFile[]> {
    const cache = this.#cache;
    const entry = key === undefined ? undefined : cache?.filesEntry(key);
    const outcome = await this.#placed(task, entry, (files) => (cache as GenerationCache).storeFiles(key as string, files));
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }
}

/** Bytes of every file under the schema folder (0 when it is missing: the reader says so). */
async function schemaBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        stat(path.join(entry.parentPath, entry.name)).then(
          (info) => info.size,
          () => 0,
        ),
      ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** The compiled tool template, from the cache or the build (precompiled.ts) when either has it: compiling it loads TypeScript. */
async function toolTemplate(cache: GenerationCache | undefined): Promise<CompiledToolTemplate> {
  const cached = await cache?.derived<CompiledToolTemplate>("tool-template");
  if (cached) return cached;
  const shipped = (await shippedPrecompiled())?.toolTemplate;
  // Stored either way: a re-run then reads one small entry, not the precompiled file and its key's sources.
  const template = shipped ?? (await import("../emit/tool-template.ts")).toolTemplate();
  await cache?.storeDerived("tool-template", template);
  return template;
}
