// Opt-in for schemas from zod-style generators (config `defaultsOptional: true` on a set): zod
// lists a field with `.default()` as required, although the server fills it in when it is
// missing (Playwright's MCP server, for one). With the option, such a field (required, and its
// own schema has a `default`) is optional, and each tool so changed says which fields.
import type { ToolDescription } from "../ir.ts";
import { pointerToken } from "../json-pointer.ts";

type Schema = Record<string, unknown>;

/** Keywords whose values are data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example", "required"]);

/** The tool with required-with-default fields made optional, and a warning naming them. */
export function defaultsOptional(tool: ToolDescription): ToolDescription {
  const relaxed: string[] = [];
  const walk = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${at}/${index}`));
    if (node === null || typeof node !== "object") return node;
    const schema = node as Schema;
    const out: Schema = {};
    for (const [key, value] of Object.entries(schema)) out[key] = DATA_KEYWORDS.has(key) ? value : walk(value, `${at}/${pointerToken(key)}`);
    const properties = schema.properties;
    if (Array.isArray(schema.required) && properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
      const defaulted = (schema.required as unknown[]).filter((name): name is string => typeof name === "string" && hasDefault((properties as Schema)[name]));
      if (defaulted.length > 0) {
        const required = (schema.required as unknown[]).filter((name) => !defaulted.includes(name as string));
        if (required.length > 0) out.required = required;
        else delete out.required;
        relaxed.push(...defaulted.map((name) => `${at}/properties/${pointerToken(name)}`));
      }
    }
    return out;
  };
  const inputSchema = walk(tool.inputSchema, "") as ToolDescription["inputSchema"];
  if (relaxed.length === 0) return tool;
  const warning = `defaultsOptional: required field${relaxed.length === 1 ? "" : "s"} with a default treated as optional: ${relaxed.map((pointer) => `#${pointer}`).join(", ")}`;
  return { ...tool, inputSchema, warnings: [...(tool.warnings ?? []), warning] };
}

function hasDefault(schema: unknown): boolean {
  return schema !== null && typeof schema === "object" && !Array.isArray(schema) && Object.hasOwn(schema, "default");
}
