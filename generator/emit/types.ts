// The TypeScript types of a tool's arguments, written by json-schema-to-typescript. Its
// raw-code keywords (`tsType` and friends) were refused before this point, and descriptions
// are made comment-safe here, so schema text never becomes type syntax.
import { compile } from "json-schema-to-typescript";
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { commentText } from "../safe-emit.ts";
import { mapSchemas, type Schema } from "../schema-walk.ts";
import { typeBaseName } from "./names.ts";

export function argsTypeName(tool: Pick<ToolDescription, "name">): string {
  return `${typeBaseName(tool.name)}Args`;
}

export async function emitArgumentTypes(tool: ToolDescription): Promise<string> {
  const renamed = withoutPrototypeKeys(mapSchemas(tool.inputSchema, (node) => allOfAlone(commentSafe(node))) as Schema);
  const schema = renamed.schema;
  // The root type is named after the tool, whatever the schema's title or $id says.
  delete schema.title;
  delete schema.$schema;
  const compiled = await compile(schema as never, argsTypeName(tool), TYPE_OPTIONS).catch((error: unknown) => {
    // A schema ajv compiled that json-schema-to-typescript cannot read is still the schema's
    // problem to the user, never an internal error with a stack trace.
    throw new InputError(
      tool.source,
      `the argument types of ${tool.name} cannot be written: json-schema-to-typescript failed with ${(error as Error).message}`,
      "report the schema to toolguard; renaming the key or $ref the message names works around it",
    );
  });
  const source = renamed.restore(compiled);
  // Line separators are legal in string literals but end `//` comments: keep them escaped.
  return source.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

const TYPE_OPTIONS = {
  bannerComment: "",
  format: false,
  additionalProperties: true,
  declareExternallyReferenced: true,
  enableConstEnums: false,
  strictIndexSignatures: true,
  unknownAny: true,
  unreachableDefinitions: false,
  $refOptions: { resolve: { external: false, file: false, http: false } } as never,
};

/** The names every object has from Object.prototype (`hasOwnProperty`, `constructor`, ...). */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));
/** Keywords whose value maps names (not keywords) to schemas. */
const NAME_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is data: a `$ref` key in it is a member of a value, never a reference. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["const", "enum", "default", "examples", "example"]);

/**
 * json-schema-to-typescript calls methods on the objects of the schema it is given
 * (`schema.hasOwnProperty(...)`), and its ref-parser takes any `$ref` key for a reference, so a
 * property named `hasOwnProperty`, or a property or definition named `$ref`, ended generation
 * with a TypeError or a missing pointer (issue 32). Each such key (a name of Object.prototype
 * anywhere, `$ref` where it is a name), and each `required` entry naming one, is given a suffix
 * no text of the schema contains; `restore` takes it off the generated source again, where the
 * key is a property name (type names made from a definition so named keep it, as identifier
 * characters).
 */
function withoutPrototypeKeys(schema: Schema): { schema: Schema; restore: (source: string) => string } {
  const text = JSON.stringify(schema);
  let n = 0;
  while (text.includes(`_tg${n}`)) n++;
  const suffix = `_tg${n}`;
  const renamed = (name: string, inMap: boolean): boolean => PROTOTYPE_KEYS.has(name) || (inMap && name === "$ref");
  // A local `$ref` through a renamed name follows it (the names renamed need no escaping).
  const retarget = (ref: string): string => {
    if (!ref.startsWith("#/")) return ref;
    const tokens = ref.slice(2).split("/");
    return `#/${tokens.map((token, index) => (index > 0 && NAME_MAPS.has(tokens[index - 1] as string) && renamed(token, true) ? `${token}${suffix}` : token)).join("/")}`;
  };
  // Data (an example, a default, an enum value) is copied with each `$ref` or prototype key
  // renamed: PagerDuty's description has `example: {$ref: "#/components/examples/.../value"}`,
  // which json-schema-to-typescript's ref-parser followed and failed on (issue 32).
  const renameData = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(renameData);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const name = renamed(key, true) ? `${key}${suffix}` : key;
      Object.defineProperty(out, name, { value: renameData(child), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const rename = (value: unknown, inMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => rename(item, false));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const copy =
        !inMap && DATA_KEYWORDS.has(key)
          ? renameData(child)
          : !inMap && key === "required" && Array.isArray(child)
            ? child.map((name) => (typeof name === "string" && renamed(name, true) ? `${name}${suffix}` : name))
            : !inMap && key === "$ref" && typeof child === "string"
              ? retarget(child)
              : rename(child, !inMap && NAME_MAPS.has(key));
      // defineProperty: `__proto__` must stay a key, not set the prototype.
      Object.defineProperty(out, renamed(key, inMap) ? `${key}${suffix}` : key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const names = [...PROTOTYPE_KEYS, "$ref"].map((key) => key.replace(/\$/g, "\\$")).join("|");
  const back = new RegExp(`(?<![\\w$])(${names})${suffix}(?![\\w$])`, "g");
  return { schema: rename(schema, false) as Schema, restore: (source) => source.replace(back, "$1") };
}
/** What stays beside an `allOf` in `allOfAlone`: names, words and the definitions references lead into. */
const BESIDE_ALL_OF: ReadonlySet<string> = new Set(["allOf", "title", "description", "$defs", "definitions", "$comment", "default", "examples", "deprecated"]);

/**
 * A schema with an `allOf` and a type of its own besides (`{allOf: [{$ref: Result}, ...],
 * properties, required}`, Glean's `SearchResult`), as an `allOf` alone: its own keywords become the
 * last part. The type is the same intersection; but json-schema-to-typescript parses the first
 * form through a second, hoisted schema whose type it caches unfinished, and when a part leads back
 * to the schema itself (a search result's structured results hold search results) it meets that
 * unfinished type and fails ("Cannot read properties of undefined (reading 'push')").
 */
function allOfAlone(node: Schema): Schema {
  if (!Array.isArray(node.allOf)) return node;
  const own = Object.entries(node).filter(([keyword]) => !BESIDE_ALL_OF.has(keyword));
  if (own.length === 0) return node;
  const kept = Object.fromEntries(Object.entries(node).filter(([keyword]) => BESIDE_ALL_OF.has(keyword) && keyword !== "allOf"));
  return { ...kept, allOf: [...node.allOf, Object.fromEntries(own)] };
}

function commentSafe(node: Schema): Schema {
  const out: Schema = { ...node };
  // References are local by now; an `$id` would only rename types after arbitrary text.
  delete out.$id;
  if (typeof out.description === "string") out.description = commentText(out.description);
  // Titles become type names; json-schema-to-typescript reduces them to identifier characters.
  if (typeof out.title === "string") out.title = commentText(out.title);
  return out;
}
