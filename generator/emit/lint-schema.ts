// Refuses, with the exact location, what would otherwise fail deep inside a library or, worse,
// pass silently: keywords ajv does not know (typos, vendor extensions that assert nothing),
// json-schema-to-typescript's raw-code keywords, which would paste schema text into types,
// `$data`, patterns the linear-time engine cannot match, and the key `__proto__`, which every
// JavaScript copy of the schema would turn into a prototype instead of a property.
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { REFERENCE_KEYWORDS, schemaPathToken, someEntry, walkSchemas } from "../schema-walk.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import type { AjvInstance } from "../ajv/instances.ts";
import { knownKeywords } from "../ajv/private-state.ts";

/** Longest example (as JSON) a schema may carry: every example is sent to the model on every request. */
export const MAX_EXAMPLE_CHARS = 16 * 1024;

const RAW_CODE_KEYWORDS = new Set(["tsType", "tsEnumNames", "tsExtends", "tsTypeName"]);

export function lintSchema(tool: ToolDescription, ajv: AjvInstance): void {
  const known = knownKeywords(ajv);
  const at = { file: tool.source.file, pointer: tool.source.pointer };
  refuseProtoKeys(tool, tool.inputSchema, "#");
  walkSchemas(tool.inputSchema, (schema, location) => {
    for (const keyword of Object.keys(schema)) {
      if (RAW_CODE_KEYWORDS.has(keyword)) {
        throw new InputError(
          at,
          `tool ${tool.name}: "${keyword}" at ${location} would paste schema text into generated TypeScript`,
          `remove "${keyword}": toolguard derives types from the schema itself`,
        );
      }
      if (keyword === "$data") {
        throw new InputError(
          at,
          `tool ${tool.name}: "$data" at ${location} would let the arguments choose the rules they are checked against`,
          "write the value into the schema; toolguard does not support $data",
        );
      }
      if (!Object.hasOwn(known, keyword)) {
        throw new InputError(
          at,
          `tool ${tool.name}: unknown keyword "${keyword}" at ${location}`,
          "correct the spelling, or remove it (toolguard validates in ajv's strict mode: a keyword it does not know would assert nothing)",
        );
      }
    }
    // A nested `$id` moves the base that `$ref`s inside it resolve against; toolguard resolves
    // every `#` reference against the tool's root, so such a schema would be checked against
    // the wrong definitions. Refused, as docs/security.md says, rather than silently wrong.
    if (location !== "#" && typeof schema["$id"] === "string" && someEntry(schema, (key, child) => REFERENCE_KEYWORDS.has(key) && typeof child === "string")) {
      throw new InputError(
        at,
        `tool ${tool.name}: the $id ${JSON.stringify(schema["$id"].slice(0, 80))} at ${location} changes what the references inside it point to, and toolguard resolves references against the tool's root only`,
        "remove the nested $id and write the references inside it as pointers from the root (#/$defs/...)",
      );
    }
    for (const [keyword, examples] of [
      ["examples", schema["examples"]],
      ["example", schema["example"] === undefined ? undefined : [schema["example"]]],
    ] as const) {
      if (!Array.isArray(examples)) continue;
      examples.forEach((example: unknown, index: number) => {
        const size = JSON.stringify(example)?.length ?? 0;
        if (size > MAX_EXAMPLE_CHARS) {
          throw new InputError(
            at,
            `tool ${tool.name}: the ${keyword === "examples" ? `example ${index}` : "example"} at ${location}/${keyword} is ${size} characters of JSON; examples are sent to the model with every request, and the limit is ${MAX_EXAMPLE_CHARS}`,
            "shorten the example (a few representative items are enough)",
          );
        }
      });
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
      { skipsTool: true },
    );
  }
}

// Any `__proto__` key, in a property map, a `$defs` entry or an enum/const value: ajv skips a
// property rule named `__proto__` and object copies drop the key, so it could never be enforced
// as written. Refused rather than silently weakened. `required` lists are plain strings and safe.
function refuseProtoKeys(tool: ToolDescription, value: unknown, location: string): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) refuseProtoKeys(tool, item, `${location}/${index}`);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (Object.hasOwn(value, "__proto__") || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) {
    throw new InputError(
      { file: tool.source.file, pointer: tool.source.pointer },
      `tool ${tool.name}: the key "__proto__" at ${location} names JavaScript's prototype, not a property, and cannot be checked faithfully`,
      'rename the property (toolguard refuses "__proto__" rather than generate a validator that ignores it)',
    );
  }
  for (const [key, child] of Object.entries(value)) refuseProtoKeys(tool, child, `${location}/${schemaPathToken(key)}`);
}
