// Rewrites `oneOf`/`anyOf` in the schema the validator is compiled from (never the schema the
// model sees) into forms that accept exactly the same values but cost less on every call.
//
// Why: ajv must run every `oneOf` branch (and build an error for each that fails) to know that
// exactly one passed. An `anyOf` stops at the first branch that passes, once ajv need not track
// evaluated properties (ajv-2020-static.ts): GitHub's ruleset rules, a `oneOf` of 21 `$ref`s,
// validate ~3x faster. A `type` list checks in one comparison and builds an error only on failure.
//
// Two rewrites, each applied only where it provably changes no verdict:
//   1. branches that say nothing but their `type` (annotations aside) become one `type` list:
//      `anyOf` always, `oneOf` when no value can satisfy two branches;
//   2. any other `oneOf` whose branches are pairwise disjoint becomes `anyOf`: "exactly one"
//      and "at least one" agree when two cannot both pass.
// When two branches are disjoint, and how a `$ref` branch is read, is union-branches.ts's job.
//
// The failure a model sees changes only in wording: a folded combinator fails as a `type` error
// ("expected string or integer") and a renamed one as `anyOf`; both are explained at the same
// schema location, so the same hints apply. Ambiguity ("matches more than one") cannot arise
// where branches are disjoint.
import { isSchemaObject, mapSchemas, REFERENCE_KEYWORDS, someEntry, type Schema } from "../schema-walk.ts";
import { pairwiseDisjoint, readings, typesOf } from "./union-branches.ts";

/** Keywords that never affect whether a value is valid. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "$comment", "examples", "example", "default", "deprecated", "readOnly", "writeOnly"]);

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

/** `node` with `from` replaced by `to` at the same position (the output is diffed and read). */
function replaceKey(node: Schema, from: string, to: string, value: unknown): Schema {
  const out: Schema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === from) out[to] = value;
    else if (key !== to) out[key] = child;
  }
  return out;
}

function refersIntoCombinator(schema: unknown): boolean {
  return someEntry(schema, (key, child) => REFERENCE_KEYWORDS.has(key) && typeof child === "string" && /\/(?:anyOf|oneOf)(?:\/|$)/.test(child));
}
