// walkSchemas is the one reading of where subschemas live that the lint, the hint table, the
// unknown-format check and the hazard walk share; it was rewritten to make a location only for
// keys that hold subschemas. The reading it replaced is kept here as the oracle: on any schema
// (names that are keywords, `__proto__` and `hasOwnProperty` as names, holes in arrays, draft-07's
// array `items`, `dependencies` of both kinds) both visit the same nodes at the same locations,
// in the same order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isSchemaObject,
  refFragment,
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  type Schema,
  schemaPathToken,
  walkSchemas,
} from "../../generator/schema-walk.ts";
import { pointerToken } from "../../generator/json-pointer.ts";

/** walkSchemas as it was before the rewrite. */
function walkedBefore(schema: unknown, visit: (node: Schema, location: string) => void, location = "#"): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, location);
  for (const [keyword, value] of Object.entries(schema)) {
    const at = `${location}/${keyword}`;
    if (SCHEMA_KEYWORDS.has(keyword) && !Array.isArray(value)) walkedBefore(value, visit, at);
    else if ((SCHEMA_ARRAY_KEYWORDS.has(keyword) || keyword === "items") && Array.isArray(value)) {
      for (const [index, item] of value.entries()) walkedBefore(item, visit, `${at}/${index}`);
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isSchemaObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const token = keyword === "$defs" || keyword === "definitions" ? refFragment(pointerToken(name)) : schemaPathToken(name);
        walkedBefore(child, visit, `${at}/${token}`);
      }
    } else if (keyword === "dependencies" && isSchemaObject(value)) {
      for (const [name, child] of Object.entries(value)) if (!Array.isArray(child)) walkedBefore(child, visit, `${at}/${schemaPathToken(name)}`);
    }
  }
}

const visits = (walk: typeof walkSchemas, schema: unknown) => {
  const seen: [Schema, string][] = [];
  walk(schema, (node, location) => void seen.push([node, location]));
  return seen;
};

/** An object whose keys are `keys` in order, `__proto__` included as a key (as JSON.parse makes it). */
const objectOf = (entries: readonly [string, unknown][]): Schema => {
  const out: Schema = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
};

const KEYS = [
  "type",
  "description",
  "items",
  "not",
  "allOf",
  "anyOf",
  "prefixItems",
  "properties",
  "$defs",
  "definitions",
  "dependencies",
  "__proto__",
  "hasOwnProperty",
  "a/b",
  "~x",
  "0",
  "12",
  "%",
];

const { schema } = fc.letrec<{ schema: unknown; node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    fc.constant("string"),
    fc.integer(),
    fc.constant(null),
    tie("schema"),
    fc.sparseArray(tie("schema"), { maxLength: 3 }),
  ),
  schema: fc.array(fc.tuple(fc.constantFrom(...KEYS), tie("node")), { maxLength: 6 }).map(objectOf),
}));

describe("walkSchemas", () => {
  it("visits what the reading it replaced visits, at the same locations, in the same order", () => {
    fc.assert(
      fc.property(schema, (value) => {
        const now = visits(walkSchemas, value);
        const before = visits(walkedBefore, value);
        expect(now.map(([, location]) => location)).toEqual(before.map(([, location]) => location));
        expect(now.every(([node], index) => node === before[index]?.[0])).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("reads a property named like a keyword as a name", () => {
    const locations = visits(walkSchemas, { properties: { items: { type: "string" }, __proto__x: {} }, items: [{}, {}] }).map(([, at]) => at);
    expect(locations).toEqual(["#", "#/properties/items", "#/properties/__proto__x", "#/items/0", "#/items/1"]);
  });
});
