// The package's catalog (`catalog.js`): every tool as data (name, description, reference kinds,
// HTTP binding, input schema) bound by `lazyTool` to a loader of its module. The index imports
// the catalog instead of 1,221 tool modules, so a process that binds every tool loads one module
// of data and each tool's validator and tables only when the tool is first used. The input
// schema is written as JSON text in a string: V8 scans a string at start-up instead of building
// the schema's objects, and the runtime parses it on first read.
import type { ToolDescription } from "../ir.ts";
import { ident, literal } from "../safe-emit.ts";
import { exportName, fileStem } from "./names.ts";

/** What the catalog reads of each tool. */
export type CatalogTool = Pick<ToolDescription, "name" | "description" | "inputSchema" | "references" | "http">;

const INTRO = [
  "// Every tool of this package as data, each bound to a loader of its module: a tool's validator",
  "// and tables are imported on its first use, so binding every tool loads only this file.",
  "// Input schemas are JSON text, parsed on first read (`inputSchema`).",
].join("\n");

export function emitCatalog(tools: readonly CatalogTool[]): string {
  const entries = tools.map((tool) => {
    const exported = ident(exportName(tool.name)).text;
    const kinds = [...new Set(Object.values(tool.references).map((field) => field.kind))].sort();
    return [
      `export const ${exported} = lazyTool(`,
      "  {",
      `    name: ${literal(tool.name).text},`,
      `    description: ${literal(tool.description).text},`,
      `    kinds: ${literal(kinds).text},`,
      `    http: ${tool.http ? literal(tool.http).text : "undefined"},`,
      `    schema: ${literal(JSON.stringify(tool.inputSchema)).text},`,
      "  },",
      `  () => import(${literal(`./tools/${fileStem(tool.name)}.js`).text}).then((module) => module.${exported}),`,
      ");",
    ].join("\n");
  });
  return [INTRO, `import { lazyTool } from "./runtime/call/lazy-tool.js";`, "", entries.join("\n\n"), ""].join("\n");
}
