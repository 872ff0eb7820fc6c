// What a hazard walk (hazard-walk.ts) knows of each value, and how it learns it where the schema
// promises no one type. A typed shape is trusted: the walk runs after the validator, so a
// `{type: "string"}` member is read as a string. A guarded shape is for a value of several
// types or alternatives (`oneOf`, `anyOf`, `allOf`, a `type` list, no `type` at all): nothing
// about it is trusted. The walk asks the value's own type (`typeof`, `Array.isArray`); an object
// is walked key by key with every property name any alternative declares there, each member again
// guarded; an array's items with what any alternative says of items; anything else is measured as
// any value (`anyValue`). So a guarded walk adds up exactly what the runtime's own walk adds up
// for any value at all, valid or not: the schema only tells it which keys count as declared. A
// declared name is then one some `properties` of the schema holds, which is all the ledger's
// shortcut relies on (`declaredKeysAreSafe` in ledger/schema-secrets.ts reads every `properties`).
// GitHub's `labels: ["bug", {"name": "triage"}]` and the ruleset's 21 kinds of rule are such values.
import { decodeToken, resolveLocalRef } from "../json-pointer.ts";
import { uniqueName } from "../load/localize-schema.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { typesOf } from "./union-branches.ts";

export type Leaf = "string" | "number" | "boolean" | "null";

export interface ObjectShape {
  /** The function's name: where the object is (`walk_body`, `walk_line_item`), so that a schema change renames no other. */
  readonly name: string;
  /** Only the declared keys can be present: they are read by name, without a loop over the keys. */
  closed: boolean;
  readonly members: { readonly name: string; readonly shape: Shape }[];
}

export type Shape =
  | { readonly kind: "any" }
  | { readonly kind: "guarded"; readonly object: ObjectShape | undefined; readonly array: Shape | undefined }
  | { readonly kind: "leaf"; readonly type: Leaf; readonly nullable: boolean }
  | { readonly kind: "object"; readonly object: ObjectShape; readonly nullable: boolean }
  | { readonly kind: "array"; readonly items: Shape; readonly nullable: boolean };

export const ANY: Shape = { kind: "any" };

/** The JSON Schema types whose values are leaves. */
export const LEAVES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null"]);

/** The one type a `type` keyword gives (`integer` read as number), and whether it adds null; undefined for several or none. */
export function typeOf(type: unknown): { type: string; nullable: boolean } | undefined {
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  const nonNull = types.filter((name) => name !== "null");
  if (types.length === 0 || nonNull.length > 1 || types.length > nonNull.length + 1) return undefined;
  const [only] = nonNull.length === 0 ? ["null"] : nonNull;
  if (typeof only !== "string" || !(LEAVES.has(only) || only === "object" || only === "array")) return undefined;
  return { type: only === "integer" ? "number" : only, nullable: nonNull.length === 1 && types.length === 2 };
}

/** Alternatives read at most per guarded value: past it, the rest declare nothing (their keys are then undeclared, never missed). */
const MAX_SOURCES = 256;
const MAX_REF_HOPS = 32;
/** Guarded values nested at most, and guarded shapes made at most per tool: past them, any value (never a wrong walk, only a scan). */
const MAX_NESTING = 64;
const MAX_SHAPES = 2000;
const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/** Whether a schema node has alternatives or parts beside its own keywords. */
export function hasCombinator(node: Schema): boolean {
  return COMBINATORS.some((keyword) => Array.isArray(node[keyword]));
}

/**
 * The guarded shape of a value every schema of `nodes` may describe, the object functions it
 * needs pushed to `objects` (named uniquely in `names`). The same set of schemas gets the same
 * shape: GitHub's rules are met once per `$ref`, and without sharing, nested alternatives would
 * expand as their product. Schemas being analysed further up count as declaring nothing.
 */
export function guardedAnalyser(root: Schema, objects: ObjectShape[], names: Set<string>): (nodes: readonly unknown[], label: string) => Shape {
  const ids = new Map<Schema, number>();
  const known = new Map<string, Shape>();
  const open = new Set<string>();
  const analyse = (nodes: readonly unknown[], label: string): Shape => {
    const { sources, place } = sourcesOf(root, nodes, label);
    const may = (type: string, node: Schema): boolean => typesOf(node)?.includes(type) ?? node["type"] === undefined;
    const objectSources = sources.filter((node) => may("object", node) && isSchemaObject(node["properties"]));
    const arraySources = sources.filter((node) => may("array", node) && isSchemaObject(node["items"]));
    // Keyed by the schemas that say something (a wrapper `oneOf` says nothing itself), so that
    // every place the same alternatives meet shares one function.
    const idOf = (node: Schema): number => ids.get(node) ?? ids.set(node, ids.size).size - 1;
    const key = `${objectSources.map(idOf).join(",")}|${arraySources.map(idOf).join(",")}`;
    const shape = known.get(key);
    if (shape !== undefined) return shape;
    // Recursion (the walk is then dropped: validatorDepthIsBounded), or past the bounds: any value.
    if (open.has(key) || open.size >= MAX_NESTING || known.size >= MAX_SHAPES) return ANY;
    open.add(key);
    let object: ObjectShape | undefined;
    if (objectSources.length > 0) {
      object = { name: uniqueName(`walk_${place.replace(/[^A-Za-z0-9_$]+/g, "_")}`, names), closed: false, members: [] };
      objects.push(object);
      const declared = new Map<string, unknown[]>();
      for (const node of objectSources)
        for (const [name, child] of Object.entries(node["properties"] as Schema)) declared.set(name, [...(declared.get(name) ?? []), child]);
      for (const [name, children] of declared) object.members.push({ name, shape: analyse(children, place === "arguments" ? name : `${place}_${name}`) });
    }
    const array =
      arraySources.length > 0
        ? analyse(
            arraySources.map((node) => node["items"]),
            `${place}_item`,
          )
        : undefined;
    open.delete(key);
    const made: Shape = object === undefined && array === undefined ? ANY : { kind: "guarded", object, array };
    known.set(key, made);
    return made;
  };
  return analyse;
}

/**
 * The schemas `nodes` stand for: each through its local `$ref`s, with the branches and parts of
 * its combinators, in order, each once. `place`: the label, or the last definition a lone node led to.
 */
function sourcesOf(root: Schema, nodes: readonly unknown[], label: string): { sources: Schema[]; place: string } {
  const sources: Schema[] = [];
  let place = label;
  const pending = [...nodes].reverse();
  while (pending.length > 0 && sources.length < MAX_SOURCES) {
    let node = pending.pop();
    const seen = new Set<string>();
    for (let hops = 0; isSchemaObject(node) && typeof node["$ref"] === "string" && hops < MAX_REF_HOPS; hops++) {
      const ref = node["$ref"];
      if (seen.has(ref)) break;
      seen.add(ref);
      if (nodes.length === 1 && sources.length === 0) place = decodeToken(ref.slice(ref.lastIndexOf("/") + 1));
      // The keywords beside a `$ref` are a source of their own: what they declare is declared.
      if (Object.keys(node).length > 1) add(node);
      node = resolveLocalRef(root, ref);
    }
    if (isSchemaObject(node)) add(node);
  }
  return { sources, place };

  function add(node: Schema): void {
    if (sources.includes(node)) return;
    sources.push(node);
    for (let k = COMBINATORS.length - 1; k >= 0; k--) {
      const list = node[COMBINATORS[k] as string];
      if (Array.isArray(list)) for (let i = list.length - 1; i >= 0; i--) pending.push(list[i]);
    }
  }
}
