// Reads the tool shapes users already have: MCP (`inputSchema`), Anthropic (`input_schema`),
// OpenAI function tools (nested under `function`, or flat), and a bare JSON Schema whose `title`
// names the tool. A file holds one tool, an array of tools, or `{ tools: [...] }`.
import { InputError } from "../errors.ts";
import type { ReadResult, ToolDescription } from "../ir.ts";
import { bundleRefs, type LoadedDocument, type LoadOptions } from "../load/load-document.ts";
import { localizeSchema } from "../load/localize-schema.ts";
import { DIALECT_URI, dialectOf } from "./dialect.ts";
import { extractReferences } from "./references.ts";
import { pointer as ptr, resolvePointer } from "../json-pointer.ts";

/** Provider-safe tool names: the intersection of what OpenAI, Anthropic and MCP clients accept. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

interface ToolShape {
  readonly name: unknown;
  readonly description: unknown;
  /** JSON Pointer of the input schema within the file. */
  readonly schemaPointer: string;
}

/**
 * Reads the tools of one file. Each input schema is its own JSON Schema document: `#` in its
 * `$ref`s means the input schema, as the model and every validator see it.
 */
export async function readToolFile(loaded: LoadedDocument, absoluteFile: string, options: LoadOptions): Promise<ReadResult> {
  const { document, file } = loaded;
  const entries: [unknown, string][] = Array.isArray(document)
    ? document.map((item, index) => [item, ptr(index)])
    : isObject(document) && Array.isArray(document.tools)
      ? document.tools.map((item, index) => [item, ptr("tools", index)])
      : [[document, ""]];
  const tools: ToolDescription[] = [];
  for (const [value, at] of entries) tools.push(await readTool(loaded, value, at, absoluteFile, options));
  if (tools.length === 0) {
    throw new InputError({ file, pointer: "" }, "the file lists no tools", "remove the file or add a tool to it");
  }
  return { tools, skipped: [] };
}

async function readTool(loaded: LoadedDocument, value: unknown, at: string, absoluteFile: string, options: LoadOptions): Promise<ToolDescription> {
  const { file } = loaded;
  const shape = detectShape(value, at);
  if (!shape) {
    throw new InputError(
      { file, pointer: at },
      'not a tool: expected MCP ({name, inputSchema}), Anthropic ({name, input_schema}), OpenAI ({type: "function", function: {name, parameters}}) or a JSON Schema with a title',
      "give the tool one of these shapes",
    );
  }
  if (typeof shape.name !== "string" || !TOOL_NAME.test(shape.name)) {
    throw new InputError(
      { file, pointer: at },
      `tool name ${JSON.stringify(shape.name)} is not safe for every provider`,
      "use 1 to 64 characters of letters, digits, '_' and '-' (such as create_invoice)",
    );
  }
  if (shape.description !== undefined && typeof shape.description !== "string") {
    throw new InputError({ file, pointer: at }, "description must be a string", "write the description as text");
  }
  const location = { file, pointer: shape.schemaPointer };
  const declared = resolvePointer(loaded.document, shape.schemaPointer);
  if (!isObject(declared)) {
    throw new InputError(
      location,
      "the tool's input schema is missing or not an object",
      'give the tool an object schema: {"type": "object", "properties": {…}}',
    );
  }
  const dialect = dialectOf(declared, location);
  const bundled = await bundleRefs(absoluteFile, declared, options);
  const localized = localizeSchema(bundled, "", { file, defsKeyword: dialect === "2020-12" ? "$defs" : "definitions" });
  if (localized.type !== "object") {
    throw new InputError(
      location,
      `a tool's input schema must have type "object", found ${JSON.stringify(localized.type)}`,
      'wrap the arguments in an object schema: {"type": "object", "properties": {…}}',
    );
  }
  const { schema, references } = extractReferences(localized, location);
  // The title is the tool's name in a bare schema (and its description the tool's): the model
  // already sees both beside the schema.
  const { title: _title, $schema: _dialect, ...rest } = schema;
  if (shape.schemaPointer === at) delete rest.description;
  return {
    name: shape.name,
    description: typeof shape.description === "string" ? shape.description : "",
    inputSchema: { $schema: DIALECT_URI[dialect], ...rest },
    dialect,
    references,
    source: { file, pointer: at },
  };
}

function detectShape(value: unknown, at: string): ToolShape | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === "function" && isObject(value.function)) {
    const fn = value.function;
    return { name: fn.name, description: fn.description, schemaPointer: `${at}/function/parameters` };
  }
  if (value.type === "function" && "parameters" in value) {
    return { name: value.name, description: value.description, schemaPointer: `${at}/parameters` };
  }
  if ("inputSchema" in value) return { name: value.name, description: value.description, schemaPointer: `${at}/inputSchema` };
  if ("input_schema" in value) return { name: value.name, description: value.description, schemaPointer: `${at}/input_schema` };
  if ("title" in value && ("properties" in value || value.type === "object")) {
    return { name: value.title, description: value.description, schemaPointer: at };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
