// A worker thread that emits tools (see generator/worker-pool.ts): it loads the emitters once,
// then emits each tool description it is sent, with the tool template the main thread compiled
// (its first message). Errors cross back as plain data (encodeError).
//
// The emitters are imported only after Node's compile cache is on (see main.ts): loading them
// is most of a worker's start-up.
import { enableCompileCache } from "node:module";
import { encodeError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { serveItems } from "../worker-pool.ts";
import type { CompiledToolTemplate } from "./tool-template.ts";

enableCompileCache?.();
const [{ emitTool }, { useToolTemplate }] = await Promise.all([import("./tool-files.ts"), import("./tool-template.ts")]);

serveItems((template) => useToolTemplate(template as CompiledToolTemplate), (tool: ToolDescription) => emitTool(tool), encodeError);
