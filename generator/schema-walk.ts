// Knows where subschemas live in a JSON Schema (2020-12, draft-07 and OpenAPI's additions), so
// that every pass over a schema visits the same places and reads property names as names,
// never as keywords.
import { pointerToken } from "./json-pointer.ts";

/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "items",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);
/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

export type Schema = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Escapes a property name the way ajv writes it into schema paths (RFC 6901, then URI-encoded). */
export function schemaPathToken(token: string | number): string {
  return encodeURIComponent(pointerToken(token));
}

/**
 * A JSON Pointer as toolguard writes it into a `$ref`'s fragment: percent-encoded only where a
 * reader would misread it (issue 32): `%` (readers decode the fragment), `#` (a second one ends
 * ajv's fragment), `\` (URL parsers read it as `/`), spaces and control characters (URL parsers
 * strip tabs and newlines, and spaces at either end) and U+2028/U+2029 (ajv's URI parsing drops
 * them). Every other character is left as it is, so refs stay readable.
 */
export function refFragment(pointer: string): string {
  return pointer.replace(/[%#\\\u0000-\u0020\u007f\u2028\u2029]/g, encodeURIComponent);
}

// ajv writes keywords as they are and reaches definitions through the `$ref` text, which
// toolguard writes pointer-escaped and refFragment-encoded (refTo in localize-schema.ts); other
// names are URI-encoded.
function nameToken(keyword: string, name: string): string {
  return keyword === "$defs" || keyword === "definitions" ? refFragment(pointerToken(name)) : schemaPathToken(name);
}

/**
 * Calls `visit` for every subschema with its location as ajv reports it (`#/properties/a`),
 * parents before children. Draft-07's array form of `items` counts as an array keyword.
 */
export function walkSchemas(schema: unknown, visit: (node: Schema, location: string) => void, location = "#"): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, location);
  // The location of a keyword's value is made only for a keyword that holds subschemas: most
  // keys of a schema (`type`, `description`) do not, and every schema walk passes here.
  for (const keyword in schema) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const value = schema[keyword];
    if (SCHEMA_KEYWORDS.has(keyword) && !Array.isArray(value)) {
      walkSchemas(value, visit, `${location}/${keyword}`);
    } else if ((SCHEMA_ARRAY_KEYWORDS.has(keyword) || keyword === "items") && Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) walkSchemas(value[index], visit, `${location}/${keyword}/${index}`);
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isSchemaObject(value)) {
      for (const name in value) if (Object.hasOwn(value, name)) walkSchemas(value[name], visit, `${location}/${keyword}/${nameToken(keyword, name)}`);
    } else if (keyword === "dependencies" && isSchemaObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        if (!Array.isArray(child)) walkSchemas(child, visit, `${location}/${keyword}/${schemaPathToken(name)}`);
      }
    }
  }
}

/** Keywords whose string value refers to another schema. */
export const REFERENCE_KEYWORDS: ReadonlySet<string> = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/**
 * Whether any object entry in `value`, at any depth, passes `test`. Keys are not told apart from
 * data (a property name, an `enum` value): for questions where a false yes only costs speed.
 */
export function someEntry(value: unknown, test: (key: string, child: unknown) => boolean): boolean {
  if (Array.isArray(value)) return value.some((item) => someEntry(item, test));
  if (value === null || typeof value !== "object") return false;
  for (const [key, child] of Object.entries(value)) if (test(key, child) || someEntry(child, test)) return true;
  return false;
}

/**
 * Rebuilds a schema bottom-up: `transform` sees each schema object (its subschemas already
 * rebuilt) and returns its replacement.
 */
export function mapSchemas(schema: unknown, transform: (node: Schema) => Schema): unknown {
  if (!isSchemaObject(schema)) return schema;
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(keyword) && !Array.isArray(value)) {
      out[keyword] = mapSchemas(value, transform);
    } else if ((SCHEMA_ARRAY_KEYWORDS.has(keyword) || keyword === "items") && Array.isArray(value)) {
      out[keyword] = value.map((item) => mapSchemas(item, transform));
    } else if ((SCHEMA_MAP_KEYWORDS.has(keyword) || keyword === "dependencies") && isSchemaObject(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, Array.isArray(child) ? child : mapSchemas(child, transform)]));
    } else {
      out[keyword] = value;
    }
  }
  return transform(out);
}
