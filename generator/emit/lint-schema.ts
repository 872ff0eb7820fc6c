// Refuses, with the exact location, what would otherwise fail deep inside a library or, worse,
// pass silently: keywords ajv does not know (typos, vendor extensions that assert nothing),
// json-schema-to-typescript's raw-code keywords, which would paste schema text into types,
// `$data`, patterns the linear-time engine cannot match, and the key `__proto__`, which every
// JavaScript copy of the schema would turn into a prototype instead of a property.
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { schemaPathToken, walkSchemas } from "../schema-walk.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import type { createAjv } from "./validator.ts";

const RAW_CODE_KEYWORDS = new Set(["tsType", "tsEnumNames", "tsExtends", "tsTypeName"]);

export function lintSchema(tool: ToolDescription, ajv: ReturnType<typeof createAjv>): void {
  const known = (ajv as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES.keywords;
  const at = { file: tool.source.file, pointer: tool.source.pointer };
  refuseProtoKeys(tool, tool.inputSchema, "#");
  walkSchemas(tool.inputSchema, (schema, location) => {
    for (const keyword of Object.keys(schema)) {
      if (RAW_CODE_KEYWORDS.has(keyword)) {
        throw new InputError(at, `tool ${tool.name}: "${keyword}" at ${location} would paste schema text into generated TypeScript`, `remove "${keyword}": toolguard derives types from the schema itself`);
      }
      if (keyword === "$data") {
        throw new InputError(at, `tool ${tool.name}: "$data" at ${location} would let the arguments choose the rules they are checked against`, "write the value into the schema; toolguard does not support $data");
      }
      if (!Object.hasOwn(known, keyword)) {
        throw new InputError(at, `tool ${tool.name}: unknown keyword "${keyword}" at ${location}`, "correct the spelling, or remove it (toolguard validates in ajv's strict mode: a keyword it does not know would assert nothing)");
      }
    }
    if (typeof schema["pattern"] === "string") checkPattern(tool, schema["pattern"], `${location}/pattern`);
    const patternProperties = schema["patternProperties"];
    if (patternProperties !== null && typeof patternProperties === "object") {
      for (const source of Object.keys(patternProperties)) checkPattern(tool, source, `${location}/patternProperties/${schemaPathToken(source)}`);
    }
  });
}

function checkPattern(tool: ToolDescription, source: string, location: string): void {
  try {
    linearRegExp(source, "u");
  } catch (error) {
    throw new InputError(
      { file: tool.source.file, pointer: tool.source.pointer },
      `tool ${tool.name}: pattern ${JSON.stringify(source)} at ${location} is refused: ${(error as Error).message}`,
      "write the pattern in the ECMAScript syntax JSON Schema uses, without lookaround or backreferences (toolguard matches patterns with RE2, in time linear in the input)",
    );
  }
}

// Any `__proto__` key, in a property map, a `$defs` entry or an enum/const value: ajv skips a
// property rule named `__proto__` and object copies drop the key, so it could never be enforced
// as written. Refused rather than silently weakened. `required` lists are plain strings and safe.
function refuseProtoKeys(tool: ToolDescription, value: unknown, location: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseProtoKeys(tool, item, `${location}/${index}`));
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (Object.hasOwn(value, "__proto__") || Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    throw new InputError(
      { file: tool.source.file, pointer: tool.source.pointer },
      `tool ${tool.name}: the key "__proto__" at ${location} names JavaScript's prototype, not a property, and cannot be checked faithfully`,
      'rename the property (toolguard refuses "__proto__" rather than generate a validator that ignores it)',
    );
  }
  for (const [key, child] of Object.entries(value)) refuseProtoKeys(tool, child, `${location}/${schemaPathToken(key)}`);
}
