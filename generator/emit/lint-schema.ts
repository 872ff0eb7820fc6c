// Refuses, with the exact location, what would otherwise fail deep inside a library or, worse,
// pass silently: keywords ajv does not know (typos, vendor extensions that assert nothing) and
// json-schema-to-typescript's raw-code keywords, which would paste schema text into types.
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { walkSchemas } from "../schema-walk.ts";
import type { createAjv } from "./validator.ts";

const RAW_CODE_KEYWORDS = new Set(["tsType", "tsEnumNames", "tsExtends", "tsTypeName"]);

export function lintSchema(tool: ToolDescription, ajv: ReturnType<typeof createAjv>): void {
  const known = (ajv as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES.keywords;
  walkSchemas(tool.inputSchema, (schema, location) => {
    for (const keyword of Object.keys(schema)) {
      const at = { file: tool.source.file, pointer: tool.source.pointer };
      if (RAW_CODE_KEYWORDS.has(keyword)) {
        throw new InputError(at, `tool ${tool.name}: "${keyword}" at ${location} would paste schema text into generated TypeScript`, `remove "${keyword}": toolguard derives types from the schema itself`);
      }
      if (!Object.hasOwn(known, keyword)) {
        throw new InputError(at, `tool ${tool.name}: unknown keyword "${keyword}" at ${location}`, "correct the spelling, or remove it (toolguard validates in ajv's strict mode: a keyword it does not know would assert nothing)");
      }
    }
  });
}
