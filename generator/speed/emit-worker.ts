// A worker thread that emits (see worker-pool.ts): it loads the tool emitters once,
// then emits each tool description it is sent, with the tool template the main thread compiled
// (its first message). It also makes the package files when asked (the runtime, the index), so
// that the main thread, which feeds the workers, is never busy for a second with TypeScript or
// prettier while they wait. Errors cross back as plain data (encodeError).
//
// A task may name a cache entry to store its files at and a spill folder to write them to: the
// worker then does both itself and answers with the files' paths (spill-write.ts), so that a
// large set's text never crosses to the main thread, which would only write it out again.
//
// The emitters are imported only after Node's compile cache is on (see main.ts): loading them
// is most of a worker's start-up.
import { enableCompileCache } from "node:module";
import type { ResolvedSet } from "../config.ts";
import { encodeError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import type { PackageTool } from "../emit/package-files.ts";
import type { EmittedFile } from "../emit/runtime.ts";
import type { CompiledToolTemplate } from "../emit/tool-template.ts";
import { writeEntry } from "./cache.ts";
import { type SpilledRecord, spillFiles } from "./spill-write.ts";
import { serveItems } from "./worker-pool.ts";

/** What a worker is asked to emit, and where the files go besides the answer. */
export type EmitTask = (
  | { readonly kind: "tool"; readonly tool: ToolDescription }
  | { readonly kind: "runtime" }
  | { readonly kind: "package"; readonly set: ResolvedSet; readonly tools: readonly PackageTool[] }
) &
  EmitPlaces;

export interface EmitPlaces {
  /** The cache entry's file to store the files at (cache.ts `entryFile`). */
  readonly store?: string;
  /** The spill folder to write the files to (spill.ts): the answer then names them. */
  readonly spill?: string;
}

/** A task's files, those written to the spill folder as their records; and whether they are stored at `store`. */
export interface EmitAnswer {
  readonly files: readonly (EmittedFile | SpilledRecord)[];
  readonly stored: boolean;
}

enableCompileCache?.();
const [{ emitTool }, { useToolTemplate }] = await Promise.all([import("../emit/tool-files.ts"), import("../emit/tool-template.ts")]);

async function emit(task: EmitTask): Promise<readonly EmittedFile[]> {
  if (task.kind === "tool") return emitTool(task.tool);
  if (task.kind === "runtime") return (await import("../emit/runtime.ts")).runtimeFiles();
  return (await import("../emit/package-files.ts")).emitPackageFiles(task.set, task.tools);
}

// A store that fails here is tried again by the main thread, whose error (with its code) is then the run's.
async function emitAndPlace(task: EmitTask): Promise<EmitAnswer> {
  const files = await emit(task);
  const stored =
    task.store !== undefined &&
    (await writeEntry(task.store, files).then(
      () => true,
      () => false,
    ));
  return { files: task.spill ? spillFiles(task.spill, files) : files, stored };
}

serveItems((template) => useToolTemplate(template as CompiledToolTemplate), emitAndPlace, encodeError);
