// json-schema-ref-parser takes every `$ref` key for a reference and stops at the first one that
// points at nothing, and it reads every `$id` as a schema resource's identifier. Three kinds of
// key are hidden from it (renamed) and shown again after bundling:
// - a `$ref` inside data (an enum value, a default, an example, an `x-` value: data-positions.ts),
//   which is a member of a value;
// - a local `#/...` `$ref` that points at nothing, which the OpenAPI reader reports on the
//   operations that reach it, skipping them and no other (issue 32). Under a schema with an
//   `$id` (an identifier in OpenAPI 3.1), `#` is that schema resource, so it is looked up there;
// - in an OpenAPI 3.0 (or Swagger 2.0) document, a schema's `$id`: its Schema Object has none,
//   so it identifies nothing and `#` stays the document (the reader leaves it out with a warning).
import { decodeToken } from "../json-pointer.ts";
import { childPlace, type Place } from "./data-positions.ts";

export interface Hidden {
  readonly value: unknown;
  /** The key each hidden `$ref` was renamed to (no key of the document is spelled so). */
  readonly key: string;
  /** The key each hidden `$id` was renamed to. */
  readonly idKey: string;
}

/** True for an OpenAPI 3.0 or Swagger 2.0 document, whose schemas have no `$id`. */
function withoutSchemaIds(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const { openapi, swagger } = value as { openapi?: unknown; swagger?: unknown };
  return (typeof openapi === "string" && openapi.startsWith("3.0")) || (openapi === undefined && typeof swagger === "string");
}

/** `value` (mutated) with its data `$ref`s, and with `hideDangling` its dangling local `$ref`s, renamed. */
export function hideFromRefParser(value: unknown, hideDangling: boolean): Hidden {
  const text = JSON.stringify(value) ?? "";
  let n = 0;
  while (text.includes(`$ref~tg${n}`) || text.includes(`$id~tg${n}`)) n++;
  const key = `$ref~tg${n}`;
  const idKey = `$id~tg${n}`;
  const noIds = withoutSchemaIds(value);
  const hideAll = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) hideAll(item);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const child of Object.values(record)) hideAll(child);
      if (Object.hasOwn(record, "$ref")) rename(record, "$ref", key);
    }
  };
  // `resource`: what `#` names here, the document or the nearest schema with an `$id`.
  const walk = (node: unknown, place: Place, resource: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item, place, resource);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      const identified = place === "keywords" && typeof record.$id === "string";
      const here = identified && !noIds ? record : resource;
      for (const [name, child] of Object.entries(record)) {
        if (name === "$ref") continue;
        const inner = childPlace(place, name, child);
        if (inner === "data") hideAll(child);
        else walk(child, inner, here);
      }
      if (identified && noIds) rename(record, "$id", idKey);
      if (hideDangling && typeof record.$ref === "string" && danglingLocalRef(here, record.$ref)) rename(record, "$ref", key);
    }
  };
  walk(value, "keywords", value);
  return { value, key, idKey };
}

/** `value` (mutated) with every hidden `$ref` and `$id` shown again. */
export function showHidden(value: unknown, hidden: Pick<Hidden, "key" | "idKey">): unknown {
  if (Array.isArray(value)) for (const item of value) showHidden(item, hidden);
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const child of Object.values(record)) showHidden(child, hidden);
    if (Object.hasOwn(record, hidden.key)) rename(record, hidden.key, "$ref");
    if (Object.hasOwn(record, hidden.idKey)) rename(record, hidden.idKey, "$id");
  }
  return value;
}

/** Renames one key in place, keeping the other keys' order. */
function rename(record: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(record).map(([name, child]) => [name === from ? to : name, child] as const);
  for (const name of Object.keys(record)) delete record[name];
  for (const [name, child] of entries) Object.defineProperty(record, name, { value: child, enumerable: true, writable: true, configurable: true });
}

const MAX_HOPS = 64;

/** True when the local `$ref` `ref` reaches nothing in `root`, following local `$ref`s on the way. */
export function danglingLocalRef(root: unknown, ref: string): boolean {
  if (!ref.startsWith("#/") && ref !== "#") return false;
  let tokens = pointerTokensOf(ref);
  if (tokens === undefined) return false;
  let current: unknown = root;
  for (let hops = 0, index = 0; index <= tokens.length; ) {
    const inner = current !== null && typeof current === "object" ? (current as { $ref?: unknown }).$ref : undefined;
    if (typeof inner === "string") {
      // Another reference on the way: continue from its target (a non-local one is not ours to judge).
      const next = pointerTokensOf(inner);
      if (next === undefined) return false;
      // References that only lead to one another reach nothing: a resource's own `$ref` beside
      // its `$id` (3.1: `{$id, $ref: "#/components/schemas/Page"}`, looked up in that resource).
      if (++hops > MAX_HOPS) return true;
      tokens = [...next, ...tokens.slice(index)];
      index = 0;
      current = root;
      continue;
    }
    if (index === tokens.length) return false;
    const token = tokens[index] as string;
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, token)) return true;
    current = (current as Record<string, unknown>)[token];
    index++;
  }
  return false;
}

function pointerTokensOf(ref: string): string[] | undefined {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return fragment.slice(1).split("/").map(decodeToken);
}
