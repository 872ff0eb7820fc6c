// A value the field does not allow but exactly one of its sibling fields does (`"created"` sent
// as `direction` where `sort` takes it): the model put it in the wrong field. Read from the hint
// table (each sibling's listed values), never from the schema, and only on a failed call: the
// siblings of a location are gathered once per table. Offered as a move only when the sibling is
// not in the call already (a move would overwrite what the model did put there).
import type { HintTable, SchemaHint } from "../contract/tool-spec.ts";
import { valueAt } from "../json/json-pointer.ts";
import { normaliseNearMiss } from "./near-miss.ts";
import { HiddenValue, isRecord } from "./text.ts";

/** Per table, per object location (`#`), its properties' hints by name. */
const siblingsByTable = new WeakMap<HintTable, Map<string, [string, SchemaHint][]>>();

/** The property location `#/properties/a` split into its object's location and its name, or undefined. */
function split(location: string): [holder: string, name: string] | undefined {
  const at = location.lastIndexOf("/properties/");
  if (at < 0) return undefined;
  const name = location.slice(at + "/properties/".length);
  return name.includes("/") ? undefined : [location.slice(0, at) || "#", name];
}

/**
 * Per table, per object location, each value some property there lists exactly (`allows`) and the
 * properties that do, in `siblingsOf`'s order: a failed call's value is looked up once, not
 * compared with every sibling's list (a body of thirty fields, on every distant near miss).
 */
const listersByTable = new WeakMap<HintTable, Map<string, ReadonlyMap<unknown, readonly string[]>>>();

function listersOf(hints: HintTable, holder: string): ReadonlyMap<unknown, readonly string[]> {
  return kept(listersByTable, hints, holder, () => {
    const listers = new Map<unknown, string[]>();
    for (const [token, hint] of siblingsOf(hints, holder)) {
      const values = hint.allowed ?? Object.values(hint.nearMisses ?? {}).filter((listed) => typeof listed === "string" && allows(hint, listed));
      // Once per property and value, as `allows` answers once per property (a near-miss table maps many spellings to one value).
      for (const value of new Set<unknown>(values)) {
        const tokens = listers.get(value) ?? [];
        tokens.push(token);
        listers.set(value, tokens);
      }
    }
    return listers;
  });
}

/** What `build` makes for `key` of `hints`, made once per table and key. */
function kept<T>(cache: WeakMap<HintTable, Map<string, T>>, hints: HintTable, key: string, build: () => T): T {
  let byKey = cache.get(hints);
  if (byKey === undefined) cache.set(hints, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined) byKey.set(key, (value = build()));
  return value;
}

function siblingsOf(hints: HintTable, holder: string): readonly [string, SchemaHint][] {
  let byHolder = siblingsByTable.get(hints);
  if (byHolder === undefined) {
    byHolder = new Map();
    for (const [location, hint] of Object.entries(hints)) {
      if (hint.allowed === undefined && hint.nearMisses === undefined) continue;
      // A definition's values are each referring property's: listed under each of those places.
      for (const at of hint.referredAt ?? [location]) {
        const parts = split(at);
        if (parts === undefined) continue;
        const list = byHolder.get(parts[0]) ?? [];
        list.push([parts[1], hint]);
        byHolder.set(parts[0], list);
      }
    }
    siblingsByTable.set(hints, byHolder);
  }
  return byHolder.get(holder) ?? [];
}

/** A value the model sent: where it is (`path`), the value, and the whole call it is in. */
export interface SentValue {
  readonly path: string;
  readonly value: unknown;
  readonly document: unknown;
}

/**
 * The one sibling of the field at `schemaLocation` (its hint's location) and `sent.path` (where the
 * value is) that allows `sent.value` and is absent from the call, as a JSON Pointer; else undefined.
 */
export function siblingFor(hints: HintTable, schemaLocation: string, sent: SentValue): string | undefined {
  if (split(schemaLocation) !== undefined) return siblingAt(hints, schemaLocation, sent);
  // A definition (`#/$defs/Direction`) names no field: each property that `$ref`s it under the
  // sent field's name is a place the value may be at. One answer across them, or none.
  const name = sent.path.slice(sent.path.lastIndexOf("/") + 1);
  let found: string | undefined;
  for (const at of hints[schemaLocation]?.referredAt ?? []) {
    const parts = split(at);
    if (parts === undefined || decoded(parts[1]) !== name) continue;
    const sibling = siblingAt(hints, at, sent);
    if (sibling === undefined) continue;
    if (found !== undefined && found !== sibling) return undefined;
    found = sibling;
  }
  return found;
}

/**
 * Whether any sibling of the field at `schemaLocation` (or of a property referring to it, for a
 * definition) lists `value` exactly, whatever the call holds: where none does, `siblingFor` is
 * undefined for every call, and a message that consults it does not depend on the call.
 */
export function siblingMayList(hints: HintTable, schemaLocation: string, value: string): boolean {
  for (const [listers, own] of placesOf(hints, schemaLocation)) {
    if (listers.get(value)?.some((token) => token !== own)) return true;
  }
  return false;
}

/** Per table, per field location, the listers of each object the field is a property of, with its own name there. */
const placesByTable = new WeakMap<HintTable, Map<string, readonly [ReadonlyMap<unknown, readonly string[]>, string][]>>();

function placesOf(hints: HintTable, schemaLocation: string): readonly [ReadonlyMap<unknown, readonly string[]>, string][] {
  return kept(placesByTable, hints, schemaLocation, () => {
    const places: [ReadonlyMap<unknown, readonly string[]>, string][] = [];
    for (const at of split(schemaLocation) === undefined ? (hints[schemaLocation]?.referredAt ?? []) : [schemaLocation]) {
      const parts = split(at);
      if (parts !== undefined) places.push([listersOf(hints, parts[0]), parts[1]]);
    }
    return places;
  });
}

function siblingAt(hints: HintTable, schemaLocation: string, sent: SentValue): string | undefined {
  const { path, value, document } = sent;
  const parts = split(schemaLocation);
  if (parts === undefined || path === "") return undefined;
  const holderPath = path.slice(0, path.lastIndexOf("/"));
  const holder = valueAt(document, holderPath);
  if (!isRecord(holder)) return undefined;
  let found: string | undefined;
  // A hidden text is compared through its own test; any other value is found among the listed ones.
  const tokens = value instanceof HiddenValue ? undefined : (listersOf(hints, parts[0]).get(value) ?? []);
  const candidates =
    tokens ??
    siblingsOf(hints, parts[0])
      .filter(([, hint]) => allows(hint, value))
      .map(([token]) => token);
  for (const token of candidates) {
    if (token === parts[1]) continue;
    // Schema paths percent-encode the pointer token (generator/schema-walk.ts); instance paths do not.
    const pointerToken = decoded(token);
    if (pointerToken === undefined || Object.hasOwn(holder, pointerToken.replaceAll("~1", "/").replaceAll("~0", "~"))) continue;
    if (found !== undefined) return undefined;
    found = `${holderPath}/${pointerToken}`;
  }
  return found;
}

/** Whether the sibling lists `value` exactly: in its listed values, or (a set too large to list) as its own near miss. */
function allows(hint: SchemaHint, value: unknown): boolean {
  // A secret-named field's hidden text, compared with the sibling's listed values only: a
  // match is a value of the schema, so naming the sibling quotes nothing the schema does not.
  if (value instanceof HiddenValue) {
    const listed = hint.allowed ?? (hint.nearMisses === undefined ? undefined : Object.values(hint.nearMisses));
    return (
      value.schemaValueFor(listed, (text) => (hint.allowed !== undefined || hint.nearMisses?.[normaliseNearMiss(text)] === text ? text : undefined)) !==
      undefined
    );
  }
  if (hint.allowed !== undefined) return hint.allowed.includes(value as never);
  return typeof value === "string" && hint.nearMisses?.[normaliseNearMiss(value)] === value;
}

function decoded(token: string): string | undefined {
  try {
    return decodeURIComponent(token);
  } catch {
    return undefined;
  }
}
