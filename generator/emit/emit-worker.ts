// A worker thread that emits tools (see generator/worker-pool.ts): it loads the emitters once,
// then emits each tool description it is sent, with the tool template the main thread compiled
// (its first message). Errors cross back as plain data (encodeError).
import { encodeError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { serveItems } from "../worker-pool.ts";
import { emitTool } from "./tool-files.ts";
import { type CompiledToolTemplate, useToolTemplate } from "./tool-template.ts";

serveItems((template) => useToolTemplate(template as CompiledToolTemplate), (tool: ToolDescription) => emitTool(tool), encodeError);
