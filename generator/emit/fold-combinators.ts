// Rewrites `oneOf`/`anyOf` in the schema the validator is compiled from (never the schema the
// model sees) into forms that accept exactly the same values but cost less on every call.
//
// Why: with `allErrors`, ajv runs every `oneOf` branch and builds an error object for each one
// that fails, then throws them away when exactly one passed. GitHub's `title: oneOf [string,
// integer]` therefore allocates an error on every valid call. `anyOf` stops at the first branch
// that passes, and a `type` list checks in one comparison and builds an error only on failure.
//
// Two rewrites, each applied only where it provably changes no verdict:
//   1. branches that say nothing but their `type` (annotations aside) become one `type` list:
//      `anyOf` always, `oneOf` when no value can satisfy two branches;
//   2. any other `oneOf` whose branches are pairwise disjoint becomes `anyOf`: "exactly one"
//      and "at least one" agree when two cannot both pass.
// Two branches are disjoint when their `type`s share no value (`integer` lies inside `number`),
// or when both accept only objects, one of them requires a property, and the values the two allow
// for it (`const` or `enum`, as OpenAPI discriminators are translated) have nothing in common. A branch is read
// both as written and through its local `$ref` (GitHub's rule unions are lists of `$ref`s):
// each reading accepts at least what the branch does, so two readings that are disjoint prove
// the branches are.
//
// The failure a model sees changes only in wording: a folded combinator fails as a `type` error
// ("expected string or integer") and a renamed one as `anyOf`; both are explained at the same
// schema location, so the same hints apply. Ambiguity ("matches more than one") cannot arise
// where branches are disjoint.
import { resolvePointer } from "../json-pointer.ts";
import { isSchemaObject, mapSchemas, type Schema } from "../schema-walk.ts";

/** Keywords that never affect whether a value is valid. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title", "description", "$comment", "examples", "example", "default", "deprecated", "readOnly", "writeOnly",
]);
const TYPE_NAMES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

/** `schema` with its combinators folded; the input is not modified. */
export function foldCombinators(schema: unknown): unknown {
  // A `$ref` into a branch (`#/properties/a/oneOf/1`) names a path the rewrite would move.
  if (refersIntoCombinator(schema)) return schema;
  // References are followed in the schema as written: folding never changes what a place accepts.
  return mapSchemas(schema, (node) => foldNode(node, (branch) => readings(branch, schema)));
}

type Readings = (branch: Schema) => readonly Schema[];

function foldNode(node: Schema, read: Readings): Schema {
  let out = node;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = out[keyword];
    if (!Array.isArray(branches) || branches.length === 0 || !branches.every(isSchemaObject)) continue;
    const exclusive = keyword === "oneOf";
    if (exclusive && !pairwiseDisjoint(branches.map(read))) continue;
    if (out.type === undefined && branches.every(isTypeOnly)) {
      out = replaceKey(out, keyword, "type", typeList(branches));
    } else if (exclusive && out.anyOf === undefined) {
      out = replaceKey(out, "oneOf", "anyOf", branches);
    }
  }
  return out;
}

/** A branch that constrains nothing but the JSON type of the value. */
function isTypeOnly(branch: Schema): boolean {
  return typesOf(branch) !== undefined && Object.keys(branch).every((key) => key === "type" || ANNOTATIONS.has(key));
}

/** The union of the branches' types, in order of first mention, as ajv's `type` takes it. */
function typeList(branches: readonly Schema[]): string | string[] {
  const names = [...new Set(branches.flatMap((branch) => typesOf(branch) ?? []))];
  return names.length === 1 ? (names[0] as string) : names;
}

/** The type names a schema's `type` keyword allows, or undefined when it sets none it can read. */
function typesOf(schema: Schema): readonly string[] | undefined {
  const type = schema.type;
  const names = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  if (!names || names.length === 0 || !names.every((name) => typeof name === "string" && TYPE_NAMES.has(name))) return undefined;
  return names as string[];
}

/** Most `$ref`s followed from one branch: enough for aliases, bounded for cycles. */
const MAX_REF_HOPS = 8;

/** `branch` and the schemas its local `$ref` chain leads to (`#/$defs/...`). */
function readings(branch: Schema, root: unknown): readonly Schema[] {
  const found = [branch];
  for (let node = branch; found.length <= MAX_REF_HOPS; ) {
    const ref = node.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) break;
    const target = resolvePointer(root, ref.slice(1));
    if (!isSchemaObject(target) || found.includes(target)) break;
    found.push((node = target));
  }
  return found;
}

/** Every pair of branches, each given as its readings, is disjoint. */
function pairwiseDisjoint(branches: readonly (readonly Schema[])[]): boolean {
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i] as readonly Schema[];
      const b = branches[j] as readonly Schema[];
      if (!a.some((left) => b.some((right) => disjoint(left, right)))) return false;
    }
  }
  return true;
}

function disjoint(a: Schema, b: Schema): boolean {
  const typesA = typesOf(a);
  const typesB = typesOf(b);
  if (typesA === undefined || typesB === undefined) return false;
  if (!typesA.some((name) => typesB.some((other) => typesOverlap(name, other)))) return true;
  return onlyObjects(typesA) && onlyObjects(typesB) && discriminated(a, b);
}

function typesOverlap(a: string, b: string): boolean {
  return a === b || (a === "number" && b === "integer") || (a === "integer" && b === "number");
}

function onlyObjects(types: readonly string[]): boolean {
  return types.every((name) => name === "object");
}

/**
 * One of them requires a property whose allowed scalar values the two keep apart: a value that
 * passed both would hold that property with a value both allow.
 */
function discriminated(a: Schema, b: Schema): boolean {
  for (const name of new Set([...requiredNames(a), ...requiredNames(b)])) {
    const valuesA = allowedScalars(a, name);
    const valuesB = allowedScalars(b, name);
    if (valuesA && valuesB && !valuesA.some((value) => valuesB.some((other) => sameScalar(value, other)))) return true;
  }
  return false;
}

function requiredNames(schema: Schema): readonly string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
}

type Scalar = string | number | boolean | null;

/** The values `properties[name]` allows through `const` or `enum`, when all are scalars. */
function allowedScalars(schema: Schema, name: string): readonly Scalar[] | undefined {
  const properties = schema.properties;
  if (!isSchemaObject(properties) || !Object.hasOwn(properties, name)) return undefined;
  const property = properties[name];
  if (!isSchemaObject(property)) return undefined;
  const values = "const" in property ? [property.const] : Array.isArray(property.enum) ? property.enum : undefined;
  return values?.every(isScalar) ? values : undefined;
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  // JSON Schema compares numbers by value: 1 and 1.0 are one value, and so are 0 and -0.
  return a === b;
}

/** `node` with `from` replaced by `to` at the same position (the output is diffed and read). */
function replaceKey(node: Schema, from: string, to: string, value: unknown): Schema {
  const out: Schema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === from) out[to] = value;
    else if (key !== to) out[key] = child;
  }
  return out;
}

function refersIntoCombinator(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersIntoCombinator);
  if (value === null || typeof value !== "object") return false;
  for (const [key, child] of Object.entries(value)) {
    if ((key === "$ref" || key === "$dynamicRef" || key === "$recursiveRef") && typeof child === "string" && /\/(?:anyOf|oneOf)(?:\/|$)/.test(child)) return true;
    if (refersIntoCombinator(child)) return true;
  }
  return false;
}
