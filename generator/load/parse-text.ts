// Turns a schema file's text into a value. YAML is read with alias expansion bounded (a YAML
// alias bomb is refused instead of expanding into gigabytes) and JSON with a size cap.
import { parse as parseYaml, YAMLParseError } from "yaml";
import { InputError } from "../errors.ts";

/** Largest schema file read, in bytes; a larger one is almost certainly not a tool schema. */
export const MAX_SCHEMA_BYTES: number = 64 * 1024 * 1024;

/** Most YAML aliases expanded in one document (yaml's own default is 100 too). */
const MAX_YAML_ALIASES = 100;

export function isYamlFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

export function parseSchemaText(file: string, text: string): unknown {
  if (text.length > MAX_SCHEMA_BYTES) {
    throw new InputError({ file, pointer: "" }, `file is ${text.length} bytes, over the ${MAX_SCHEMA_BYTES}-byte limit`, "split the document or remove what is not a tool schema");
  }
  if (isYamlFile(file)) {
    try {
      return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: true, prettyErrors: true });
    } catch (error) {
      const detail = error instanceof YAMLParseError ? error.message.split("\n")[0] : String(error);
      throw new InputError({ file, pointer: "" }, `not valid YAML: ${detail}`, "fix the YAML syntax at the position given (aliases are limited to 100 per document)");
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError({ file, pointer: "" }, `not valid JSON: ${(error as Error).message}`, "fix the JSON syntax at the position given");
  }
}
