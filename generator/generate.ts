// One schema set in, one generated package out, all in memory: read -> describe -> emit ->
// format. Nothing touches the disk here (but the cache), so `check` and `generate` share every
// byte. The reader and the emitters are loaded only when the cache cannot answer: they pull in
// TypeScript, prettier and ajv, which take longer to load than a cached run takes.
import { InputError, InputErrors } from "./errors.ts";
import type { SkippedTool, ToolDescription } from "./ir.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import type { GenerationCache } from "./cache.ts";
import type { EmittedFile } from "./emit/runtime.ts";
import { assertUniqueNames } from "./emit/unique-names.ts";
import { mapLimit } from "./map-limit.ts";

export interface GeneratedPackage {
  readonly set: ResolvedSet;
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  /** Every file of the package, sorted by path. */
  readonly files: readonly EmittedFile[];
}

/** How many tools are emitted at once; emission is mostly CPU, partly prettier's async work. */
const CONCURRENCY = 8;

export async function generateSet(set: ResolvedSet, config: Pick<ResolvedConfig, "allowNetwork" | "strict">, cache?: GenerationCache): Promise<GeneratedPackage> {
  const setKey = await cache?.setKey(set, config);
  const whole = setKey ? await cache?.set(setKey) : undefined;
  if (whole) return { set, ...whole };
  const { readSchemaSet } = await import("./read/index.ts");
  const read = await readSchemaSet(set.schemas, config);
  const tools = [...read.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  assertUniqueNames(tools);
  const errors: InputError[] = [];
  const perTool = await mapLimit(tools, CONCURRENCY, async (tool) => {
    const cached = await cache?.tool(tool);
    if (cached) return cached;
    try {
      const { emitTool } = await import("./emit/tool-files.ts");
      const files = await emitTool(tool);
      await cache?.storeTool(tool, files);
      return files;
    } catch (error) {
      if (error instanceof InputError) {
        errors.push(error);
        return [];
      }
      throw error;
    }
  });
  if (errors.length > 0) throw new InputErrors(errors);
  const files = [...(await packageFiles(set, tools, cache)), ...perTool.flat()];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (cache && setKey) await cache.storeSet(setKey, { tools, skipped: read.skipped, files });
  return { set, tools, skipped: read.skipped, files };
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
