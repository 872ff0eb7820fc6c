// The package's catalog (`catalog.js`): every tool's name and reference kinds bound by
// `lazyTool` to a loader of its module, and the rest of what the model sees in `catalog.json`
// beside it (description, HTTP binding, input schema: one tool per line, in catalog order). The
// index imports the catalog instead of 1,221 tool modules, so a process that binds every tool
// loads one small module, each tool's validator and tables only when the tool is first used, and
// the JSON on the first read of any description, schema or binding (GitHub's is 2.4 MB, which
// compiled as code was most of a start-up).
import type { ToolDescription } from "../ir.ts";
import { ident, literal } from "../safe-emit.ts";
import { exportName, fileStem } from "./names.ts";

/** What the catalog reads of each tool. */
export type CatalogTool = Pick<ToolDescription, "name" | "description" | "inputSchema" | "references" | "http">;

const INTRO = [
  "// Every tool of this package as data, each bound to a loader of its module: a tool's validator",
  "// and tables are imported on its first use, so binding every tool loads only this file.",
  "// Descriptions, HTTP bindings and input schemas are in catalog.json, read on first use.",
].join("\n");

/** catalog.json: each tool's description, HTTP binding and input schema, one tool per line, in catalog order. */
export function emitCatalogSchemas(tools: readonly CatalogTool[]): string {
  const line = (tool: CatalogTool): string =>
    literal({ description: tool.description, ...(tool.http ? { http: tool.http } : {}), inputSchema: tool.inputSchema }).text;
  return `[\n${tools.map(line).join(",\n")}\n]\n`;
}

export function emitCatalog(tools: readonly CatalogTool[]): string {
  const entries = tools.map((tool, index) => {
    const exported = ident(exportName(tool.name)).text;
    const kinds = [...new Set(Object.values(tool.references).map((field) => field.kind))].sort();
    return [
      `export const ${exported} = lazyTool(`,
      "  {",
      `    name: ${literal(tool.name).text},`,
      `    kinds: ${literal(kinds).text},`,
      `    data: dataAt(${index}),`,
      "  },",
      `  () => import(${literal(`./tools/${fileStem(tool.name)}.js`).text}).then((module) => module.${exported}),`,
      ");",
    ].join("\n");
  });
  return [
    INTRO,
    `import { catalogData, lazyTool } from "./runtime/call/lazy-tool.js";`,
    "",
    `const dataAt = catalogData(new URL("./catalog.json", import.meta.url));`,
    "",
    entries.join("\n\n"),
    "",
  ].join("\n");
}
