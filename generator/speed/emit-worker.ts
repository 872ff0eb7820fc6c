// A worker thread that emits (see worker-pool.ts): it loads the tool emitters once,
// then emits each tool description it is sent, with the tool template the main thread compiled
// (its first message). It also makes the package files when asked (the runtime, the index), so
// that the main thread, which feeds the workers, is never busy for a second with TypeScript or
// prettier while they wait. Errors cross back as plain data (encodeError).
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
import { serveItems } from "./worker-pool.ts";

/** What a worker is asked to emit. */
export type EmitTask =
  | { readonly kind: "tool"; readonly tool: ToolDescription }
  | { readonly kind: "runtime" }
  | { readonly kind: "package"; readonly set: ResolvedSet; readonly tools: readonly PackageTool[] };

enableCompileCache?.();
const [{ emitTool }, { useToolTemplate }] = await Promise.all([import("../emit/tool-files.ts"), import("../emit/tool-template.ts")]);

async function emit(task: EmitTask): Promise<readonly EmittedFile[]> {
  if (task.kind === "tool") return emitTool(task.tool);
  if (task.kind === "runtime") return (await import("../emit/runtime.ts")).runtimeFiles();
  return (await import("../emit/package-files.ts")).emitPackageFiles(task.set, task.tools);
}

serveItems((template) => useToolTemplate(template as CompiledToolTemplate), emit, encodeError);
