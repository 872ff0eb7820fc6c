// OpenAI's strict mode (`strict: true` on a function tool) constrains decoding to a subset of
// JSON Schema: every object lists all its properties as required and forbids others, and only
// some keywords are understood. This rewrites a tool's input schema into that subset, when it
// can, and says what it had to change:
//   - an optional field becomes required and nullable; the guard later drops exactly those
//     nulls (`absentNulls`, coerce/absent-nulls.ts), so it validates the call the model meant;
//     its description says to send null where the author's says to omit it (strict-description.ts);
//   - an assertion strict mode does not understand (minLength, uniqueItems, oneOf...) is left
//     out of the strict schema ("loosened"): the model is then constrained a little less, and
//     the guard, which always validates against the tool's own schema, still enforces it;
//   - what strict mode cannot express at all (a map with additionalProperties, a recursive
//     $ref, a root that is not a plain object...) makes the tool non-strict ("blocking").
// The generator prints both lists for every set that uses an OpenAI extra; the adapters refuse
// `strict: true` for a tool with a blocking reason. docs/adapters.md lists the rules.
import type { InputSchema, JsonSchema } from "../contract/tool-spec.ts";
import { escapeToken } from "../json/json-pointer.ts";
import { strictNullableDescription } from "./strict-description.ts";

/** One thing about a schema that strict mode does not take as written. */
export interface StrictIssue {
  /** JSON Pointer of the schema location (`#/properties/memo`). */
  readonly at: string;
  readonly keyword: string;
  readonly why: string;
}

export interface StrictVariant {
  /** The schema to send with `strict: true`; `undefined` when a blocking issue exists. */
  readonly schema: InputSchema | undefined;
  /** Where a `null` in the arguments stands for an omitted optional field (for `CallContext.absentNulls`). */
  readonly absentNulls: readonly string[];
  /** Assertions left out of the strict schema; the guard still checks them. */
  readonly loosened: readonly StrictIssue[];
  /** Why the schema cannot be strict at all. */
  readonly blocking: readonly StrictIssue[];
}

/** Keywords strict mode takes as they are. */
const KEPT = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "title",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);

/** Annotations and bookkeeping that assert nothing: left out of the strict schema silently. */
const DROPPED_QUIETLY = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$comment",
  "$defs",
  "definitions",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
]);

/** Assertions strict mode does not take: left out, each with why (the guard still checks them). */
const LOOSENED: Readonly<Record<string, string>> = {
  minLength: "string length limits are not part of OpenAI's strict subset",
  maxLength: "string length limits are not part of OpenAI's strict subset",
  uniqueItems: "uniqueItems is not part of OpenAI's strict subset",
  minProperties: "property counts are not part of OpenAI's strict subset",
  maxProperties: "property counts are not part of OpenAI's strict subset",
  propertyNames: "propertyNames is not part of OpenAI's strict subset",
  contains: "contains is not part of OpenAI's strict subset",
  minContains: "contains is not part of OpenAI's strict subset",
  maxContains: "contains is not part of OpenAI's strict subset",
  not: "not is not part of OpenAI's strict subset",
  if: "conditionals are not part of OpenAI's strict subset",
  then: "conditionals are not part of OpenAI's strict subset",
  else: "conditionals are not part of OpenAI's strict subset",
  dependentRequired: "dependentRequired is not part of OpenAI's strict subset",
  dependentSchemas: "dependentSchemas is not part of OpenAI's strict subset",
  contentEncoding: "content keywords are not part of OpenAI's strict subset",
  contentMediaType: "content keywords are not part of OpenAI's strict subset",
};

/** The formats strict mode understands; any other is left out of the strict schema. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** OpenAI's limit on nesting in a strict schema. */
const MAX_DEPTH = 10;

interface Walk {
  readonly root: JsonSchema;
  readonly absentNulls: string[];
  readonly loosened: StrictIssue[];
  readonly blocking: StrictIssue[];
  /** `$ref`s being expanded, to find recursion. */
  readonly expanding: Set<string>;
}

/** The strict variant of `schema`, with what it changed and what stops it. */
export function strictVariant(schema: InputSchema): StrictVariant {
  const walk: Walk = { root: schema, absentNulls: [], loosened: [], blocking: [], expanding: new Set() };
  if (schema.type !== "object" || schema.properties === undefined) {
    walk.blocking.push({ at: "#", keyword: "type", why: "strict mode needs the root to be an object with properties" });
  }
  const converted = convert(schema, { at: "#", args: "", depth: 0 }, walk);
  return {
    schema: walk.blocking.length === 0 ? (converted as unknown as InputSchema) : undefined,
    absentNulls: walk.absentNulls,
    loosened: walk.loosened,
    blocking: walk.blocking,
  };
}

/** Where a schema node sits: its schema location, the arguments' pointer pattern, its nesting. */
interface Place {
  readonly at: string;
  readonly args: string;
  readonly depth: number;
}

/** `node` in the strict subset, at `place`. */
function convert(node: unknown, place: Place, walk: Walk): Record<string, unknown> {
  const { at, args, depth } = place;
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    walk.blocking.push({ at, keyword: String(node), why: "a boolean schema (any value, or none) cannot be strict" });
    return {};
  }
  if (depth > MAX_DEPTH) {
    walk.blocking.push({ at, keyword: "properties", why: `strict mode allows at most ${MAX_DEPTH} levels of nesting` });
    return {};
  }
  const schema = node as Record<string, unknown>;
  if (typeof schema.$ref === "string") return expand(schema, place, walk);
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    const where = `${at}/${escapeToken(keyword)}`;
    if (keyword === "format") {
      if (typeof value === "string" && STRICT_FORMATS.has(value)) out.format = value;
      else walk.loosened.push({ at: where, keyword, why: `format ${JSON.stringify(value)} is not one strict mode understands` });
    } else if (keyword === "oneOf" || keyword === "anyOf") {
      if (!Array.isArray(value)) continue;
      if (keyword === "oneOf")
        walk.loosened.push({ at: where, keyword, why: "oneOf is sent as anyOf (strict mode has no oneOf); the guard still requires exactly one branch" });
      out.anyOf = value.map((branch, index) => convert(branch, { at: `${where}/${index}`, args, depth: depth + 1 }, walk));
    } else if (
      keyword === "allOf" ||
      keyword === "prefixItems" ||
      keyword === "patternProperties" ||
      keyword === "unevaluatedProperties" ||
      keyword === "unevaluatedItems" ||
      keyword === "$dynamicRef"
    ) {
      walk.blocking.push({ at: where, keyword, why: `${keyword} cannot be expressed in strict mode` });
    } else if (Object.hasOwn(LOOSENED, keyword)) {
      walk.loosened.push({ at: where, keyword, why: LOOSENED[keyword] as string });
    } else if (keyword.startsWith("x-") || DROPPED_QUIETLY.has(keyword)) {
    } else if (!KEPT.has(keyword)) {
      walk.blocking.push({ at: where, keyword, why: `${keyword} is not part of OpenAI's strict subset` });
    } else if (keyword !== "properties" && keyword !== "required" && keyword !== "additionalProperties" && keyword !== "items") {
      out[keyword] = value;
    }
  }
  if (out.type === undefined && out.anyOf === undefined && out.enum === undefined && out.const === undefined && !isObjectSchema(schema)) {
    walk.blocking.push({ at, keyword: "type", why: "strict mode needs a type (or anyOf, enum, const) at every place; this one accepts anything" });
  }
  if (isObjectSchema(schema)) objectPart(schema, out, place, walk);
  if (schema.items !== undefined) out.items = convert(schema.items, { at: `${at}/items`, args: `${args}/*`, depth: depth + 1 }, walk);
  else if (schema.type === "array") walk.blocking.push({ at, keyword: "items", why: "strict mode needs every array to say what its items are" });
  return out;
}

/** Properties all required, optional ones nullable; no other keys. */
function objectPart(schema: Record<string, unknown>, out: Record<string, unknown>, place: Place, walk: Walk): void {
  const { at, args, depth } = place;
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false && extra !== true) {
    walk.blocking.push({
      at: `${at}/additionalProperties`,
      keyword: "additionalProperties",
      why: "a map (additionalProperties with a schema) cannot be strict: strict mode names every key",
    });
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const converted: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const where = `${at}/properties/${escapeToken(name)}`;
    const path = `${args}/${escapeToken(name)}`;
    const strict = convert(property, { at: where, args: path, depth: depth + 1 }, walk);
    if (required.has(name)) {
      converted[name] = strict;
    } else if (acceptsNull(property, walk.root)) {
      // Null already means something here; it stays, and is validated as sent.
      converted[name] = strict;
    } else {
      // Required now, with null for "left out": its description must not say "omit it".
      const description = strictNullableDescription(typeof strict.description === "string" ? strict.description : undefined);
      converted[name] = nullable({ ...strict, description });
      walk.absentNulls.push(path);
    }
  }
  out.type = "object";
  out.properties = converted;
  out.required = Object.keys(properties);
  out.additionalProperties = false;
}

function expand(schema: Record<string, unknown>, place: Place, walk: Walk): Record<string, unknown> {
  const { at, args, depth } = place;
  const ref = schema.$ref as string;
  const others = Object.keys(schema).filter(
    (key) => key !== "$ref" && key !== "description" && key !== "title" && !DROPPED_QUIETLY.has(key) && !key.startsWith("x-"),
  );
  if (others.length > 0) walk.blocking.push({ at, keyword: "$ref", why: `keywords beside $ref (${others.join(", ")}) are not expanded for strict mode` });
  if (walk.expanding.has(ref)) {
    walk.blocking.push({ at, keyword: "$ref", why: `recursive $ref ${ref}: the places where a null stands for an omitted field could not be listed` });
    return {};
  }
  const target = resolveLocal(walk.root, ref);
  if (target === undefined) {
    walk.blocking.push({ at, keyword: "$ref", why: `$ref ${ref} does not point into the schema` });
    return {};
  }
  walk.expanding.add(ref);
  const converted = convert(target, { at: ref, args, depth }, walk);
  walk.expanding.delete(ref);
  if (typeof schema.description === "string") converted.description = schema.description;
  return converted;
}

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === "object" || (schema.type === undefined && (schema.properties !== undefined || schema.required !== undefined));
}

/** `schema` widened to also accept null, in the form strict mode reads best. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const { type } = schema;
  if (typeof type === "string" && schema.anyOf === undefined && schema.const === undefined) {
    const widened: Record<string, unknown> = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) widened.enum = [...(schema.enum as unknown[]), null];
    return widened;
  }
  const { description, ...rest } = schema;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: "null" }] };
}

/** Whether the schema as written already accepts null (then a null is a value, not an absence). */
function acceptsNull(node: unknown, root: JsonSchema, seen: Set<unknown> = new Set()): boolean {
  if (node === true) return true;
  if (typeof node !== "object" || node === null || seen.has(node)) return false;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  if (typeof schema.$ref === "string") return acceptsNull(resolveLocal(root, schema.$ref), root, seen);
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  for (const union of [schema.anyOf, schema.oneOf]) {
    if (Array.isArray(union) && union.some((branch) => acceptsNull(branch, root, seen))) return true;
  }
  return false;
}

/** The schema a local `$ref` (`#/$defs/x`) points to, if any. */
function resolveLocal(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
