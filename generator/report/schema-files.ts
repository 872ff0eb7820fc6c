// Which file holds each tool's schema, so a finding names the file to change. The report reads a
// schemas folder (`--schemas`, default `schemas/` when present): every JSON or YAML tool file
// whose `name` is a tool. A file that does not parse is skipped: the report is about traffic,
// and `generate` is where schema files are checked.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { MAX_SCHEMA_BYTES, parseSchemaText } from "../load/parse-text.ts";

/** Most files looked at in a schemas folder (its subfolders included). */
const MAX_FILES = 5_000;

/** A tool's schema file, and where in it the input schema and the description are. */
export interface ToolSchemaFile {
  /** Relative to the working directory. */
  readonly file: string;
  /** The whole file as read. */
  readonly document: unknown;
  /** Pointer to the input schema: `/inputSchema`, `/input_schema`, `/function/parameters`, `/parameters`, or `` for a bare schema. */
  readonly schemaAt: string;
  /** Pointer to the tool's description. */
  readonly descriptionAt: string;
}

/** Tool name -> its schema file, for every tool file under `dir`. */
export function schemaFilesIn(dir: string, cwd: string): Map<string, ToolSchemaFile> {
  const files = new Map<string, ToolSchemaFile>();
  let seen = 0;
  const visit = (folder: string): void => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (seen++ >= MAX_FILES) return;
      const file = path.join(folder, name);
      let stat: ReturnType<typeof statSync>;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!name.startsWith(".") && name !== "node_modules") visit(file);
        continue;
      }
      if (!/\.(json|ya?ml)$/i.test(name) || stat.size > MAX_SCHEMA_BYTES) continue;
      try {
        const shape = toolShape(parseSchemaText(file, readFileSync(file, "utf8")));
        if (shape && !files.has(shape.name)) files.set(shape.name, { file: path.relative(cwd, file), ...shape });
      } catch {
        // Not a tool file we can read: no file named for its tool.
      }
    }
  };
  visit(dir);
  return files;
}

/** The tool shapes `generate` reads (MCP, Anthropic, OpenAI function, bare schema with a title). */
function toolShape(value: unknown): { name: string; document: unknown; schemaAt: string; descriptionAt: string } | undefined {
  if (!isObject(value)) return undefined;
  const fn = value.function;
  if (value.type === "function" && isObject(fn) && typeof fn.name === "string")
    return { name: fn.name, document: value, schemaAt: "/function/parameters", descriptionAt: "/function/description" };
  if (typeof value.name === "string") {
    const schemaAt = "inputSchema" in value ? "/inputSchema" : "input_schema" in value ? "/input_schema" : "parameters" in value ? "/parameters" : undefined;
    if (schemaAt) return { name: value.name, document: value, schemaAt, descriptionAt: "/description" };
  }
  if (typeof value.title === "string" && (value.type === "object" || isObject(value.properties)))
    return { name: value.title, document: value, schemaAt: "", descriptionAt: "/description" };
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
