// A `format` toolguard does not know (Notion's MCP server says `format: "json"`) is, in JSON
// Schema 2020-12 and in OpenAPI, an annotation: it asserts nothing. Such a tool is generated,
// the format kept for the model to read and left unchecked, with a warning naming where it is.
// A set with `unknownFormats: "refuse"` refuses it instead, for teams that want every format
// checked (config.ts).
import { ANNOTATION_FORMATS } from "../ajv/instances.ts";
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { walkSchemas } from "../schema-walk.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";

/** What a set does with a format toolguard does not know (config `unknownFormats`). */
export type UnknownFormats = "annotate" | "refuse";

/** The formats the generated validators check, or know to be annotations. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([...Object.keys(formats), ...ANNOTATION_FORMATS]);

/** Every `format` in `schema` toolguard does not know, with its location (`#/properties/icon`). */
export function unknownFormatsOf(schema: unknown): { format: string; location: string }[] {
  const found: { format: string; location: string }[] = [];
  walkSchemas(schema, (node, location) => {
    if (typeof node["format"] === "string" && !KNOWN_FORMATS.has(node["format"])) found.push({ format: node["format"], location });
  });
  return found;
}

/**
 * The tool with a warning per unknown format, or (`refuse`) an InputError naming the first one.
 * Each is named by the tool's place in its file and the format's place in the tool's input
 * schema (`#/properties/icon`), the location ajv and the hint table use.
 */
export function checkUnknownFormats(tool: ToolDescription, mode: UnknownFormats): ToolDescription {
  const found = unknownFormatsOf(tool.inputSchema);
  if (found.length === 0) return tool;
  if (mode === "refuse") {
    const [first] = found as [{ format: string; location: string }];
    throw new InputError(
      tool.source,
      `tool ${tool.name}: unknown format ${JSON.stringify(first.format)} at input schema ${first.location} (the set sets unknownFormats: "refuse")`,
      `use a format toolguard checks (${[...KNOWN_FORMATS].sort().join(", ")}), remove it, or set unknownFormats to "annotate"`,
    );
  }
  const warnings = found.map(
    (entry) => `unknown format ${JSON.stringify(entry.format)} at input schema ${entry.location}: an annotation, shown to the model, not checked`,
  );
  return { ...tool, warnings: [...(tool.warnings ?? []), ...warnings] };
}
