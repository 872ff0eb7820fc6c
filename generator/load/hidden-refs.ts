// json-schema-ref-parser takes every `$ref` key for a reference and stops at the first one that
// points at nothing. Two kinds are hidden from it (the key renamed) and shown again after bundling:
// - a `$ref` inside data (an enum value, a default, an example, an `x-` value: data-positions.ts),
//   which is a member of a value;
// - a local `#/...` `$ref` that points at nothing, which the OpenAPI reader reports on the
//   operations that reach it, skipping them and no other (issue 32).
import { decodeToken } from "../json-pointer.ts";
import { childPlace, type Place } from "./data-positions.ts";

export interface Hidden {
  readonly value: unknown;
  /** The key each hidden `$ref` was renamed to (no key of the document is spelled so). */
  readonly key: string;
}

/** `value` (mutated) with its data `$ref`s, and with `dangling` its dangling local `$ref`s, renamed. */
export function hideFromRefParser(value: unknown, hideDangling: boolean): Hidden {
  const text = JSON.stringify(value) ?? "";
  let n = 0;
  while (text.includes(`$ref~tg${n}`)) n++;
  const key = `$ref~tg${n}`;
  // `#` means another resource's root under an `$id`: only data is hidden there.
  const dangling = !hideDangling || text.includes('"$id"') ? () => false : (ref: string) => danglingLocalRef(value, ref);
  const hideAll = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) hideAll(item);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const child of Object.values(record)) hideAll(child);
      if (Object.hasOwn(record, "$ref")) rename(record, "$ref", key);
    }
  };
  const walk = (node: unknown, place: Place): void => {
    if (Array.isArray(node)) for (const item of node) walk(item, place);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const [name, child] of Object.entries(record)) {
        if (name === "$ref") continue;
        const inner = childPlace(place, name, child);
        if (inner === "data") hideAll(child);
        else walk(child, inner);
      }
      if (typeof record.$ref === "string" && dangling(record.$ref)) rename(record, "$ref", key);
    }
  };
  walk(value, "keywords");
  return { value, key };
}

/** `value` (mutated) with every `key` renamed back to `$ref`. */
export function showHidden(value: unknown, key: string): unknown {
  if (Array.isArray(value)) for (const item of value) showHidden(item, key);
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const child of Object.values(record)) showHidden(child, key);
    if (Object.hasOwn(record, key)) rename(record, key, "$ref");
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
      if (next === undefined || ++hops > MAX_HOPS) return false;
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
