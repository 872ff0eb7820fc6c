// One schema set in, one generated package out, all in memory: read -> describe -> emit ->
// format. Nothing touches the disk here, so `check` and `generate` share every byte.
import { InputError, InputErrors } from "./errors.ts";
import type { SkippedTool, ToolDescription } from "./ir.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import { readSchemaSet } from "./read/index.ts";
import { assertUniqueNames } from "./emit/unique-names.ts";
import { emitTool } from "./emit/tool-files.ts";
import { emitPackageFiles } from "./emit/package-files.ts";
import { runtimeFiles, type EmittedFile } from "./emit/runtime.ts";
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

export async function generateSet(set: ResolvedSet, config: Pick<ResolvedConfig, "allowNetwork" | "strict">): Promise<GeneratedPackage> {
  const read = await readSchemaSet(set.schemas, config);
  const tools = [...read.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  assertUniqueNames(tools);
  const errors: InputError[] = [];
  const perTool = await mapLimit(tools, CONCURRENCY, async (tool) => {
    try {
      return await emitTool(tool);
    } catch (error) {
      if (error instanceof InputError) {
        errors.push(error);
        return [];
      }
      throw error;
    }
  });
  if (errors.length > 0) throw new InputErrors(errors);
  const files = [...runtimeFiles(), ...(await emitPackageFiles(set, tools)), ...perTool.flat()];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { set, tools, skipped: read.skipped, files };
}
