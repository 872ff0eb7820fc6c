// The judge's reading of OpenAPI's `discriminator` (the project's reading, docs/openapi.md,
// "Discriminators: the value selects the branch"). JSON Schema does not know the keyword, so ajv
// alone ignores it and accepts a call whose discriminator property names no branch, as long as
// some branch's schema lets the property be any string (ix-api.net: `type: {type: string}` in a
// branch the mapping names `route_server`). OpenAPI says the property's value selects the
// branch; the guard applies that (generator/read/openapi/discriminator.ts), and so does the
// judge, written here apart from the guard's code.
//
// A discriminator over a oneOf/anyOf of local `$ref`s gets an extra keyword on the schema as
// written (`x-corpus-discriminator`). For each branch, the values that select it, in the
// guard's order:
//   1. the values the branch itself allows for the property (`const`/`enum`/`type: null`,
//      through `$ref`s and `allOf`; a branch that is a union allows what its alternatives allow),
//      less those the `mapping` gives another branch (branches sharing one listed type);
//   2. else the `mapping` entries naming it (then the property must be sent, as OpenAPI says);
//   3. else, under `oneOf` and for an object branch, its component name (OpenAPI's implicit
//      value), only where the property is sent;
//   4. else any value (under `anyOf`, or a branch that is not an object: nothing narrows it).
// The keyword takes the place of the union (which is removed from the judge's copy): a call is
// valid when exactly one (oneOf; anyOf: at least one) of the branches its value selects accepts
// it; a call without the property selects the branches that do not need it. So two branches that
// overlap (a free-string branch beside a pinned one) no longer both match and fail `oneOf`:
// OpenAPI's discriminator decides between them, as it does in the guard.
import type { Ajv } from "ajv";
import { speltRef } from "./spelt-pointers.ts";

type Node = Record<string, unknown>;

export const DISCRIMINATOR_KEYWORD = "x-corpus-discriminator";

const MAX_DEPTH = 32;

interface Branch {
  /** `doc#` pointer of the branch's schema. */
  readonly ref: string;
  /** The values that select it; `undefined`: any value. */
  readonly values?: readonly unknown[];
  /** Selected only by mapping entries: a call without the property does not select it. */
  readonly needsProperty: boolean;
}

interface Selection {
  readonly property: string;
  /** oneOf: exactly one selected branch accepts; anyOf: at least one. */
  readonly exactlyOne: boolean;
  readonly branches: readonly Branch[];
}

const decode = (token: string): string => token.replaceAll("~1", "/").replaceAll("~0", "~");

function resolve(document: unknown, pointer: string): unknown {
  let node = document;
  for (const part of pointer.split("/").slice(1)) node = (node as Node | undefined)?.[decode(part)];
  return node;
}

/** The schema and everything it must also satisfy: its `$ref` target and its `allOf` members. */
function conjuncts(document: unknown, node: unknown): Node[] {
  const found: Node[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || value === null || typeof value !== "object" || Array.isArray(value) || seen.has(value)) return;
    seen.add(value);
    const schema = value as Node;
    found.push(schema);
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) visit(resolve(document, decodeURIComponent(schema.$ref.slice(1))), depth + 1);
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) visit(member, depth + 1);
  };
  visit(node, 0);
  return found;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function intersect(current: unknown[] | undefined, own: readonly unknown[]): unknown[] {
  return current === undefined ? [...own] : current.filter((value) => own.some((other) => same(value, other)));
}

/** Values a union allows: each alternative's, united; `undefined` if one alternative allows any. */
function unionOf(alternatives: unknown, pick: (alternative: unknown) => unknown[] | undefined): unknown[] | undefined {
  if (!Array.isArray(alternatives)) return undefined;
  const each = alternatives.map(pick);
  if (!each.every((values): values is unknown[] => values !== undefined)) return undefined;
  return each.flat().filter((value, index, all) => all.findIndex((other) => same(other, value)) === index);
}

/**
 * The values a property's schema lists (`const`, `enum` with 3.0's nullable, `type: null`, unions of those).
 * A schema met again on its own path (`open`: Komga's operators, each an allOf of the union that
 * lists it) lists none there, so the walk ends.
 */
function listedValues(document: unknown, schema: unknown, depth: number, open = new Set<unknown>()): unknown[] | undefined {
  if (open.has(schema)) return undefined;
  open.add(schema);
  try {
    return listedHere(document, schema, depth, open);
  } finally {
    open.delete(schema);
  }
}

function listedHere(document: unknown, schema: unknown, depth: number, open: Set<unknown>): unknown[] | undefined {
  let values: unknown[] | undefined;
  for (const part of conjuncts(document, schema)) {
    const own = Object.hasOwn(part, "const") ? [part.const] : Array.isArray(part.enum) ? part.enum : part.type === "null" ? [null] : undefined;
    if (own !== undefined) values = intersect(values, part.nullable === true && !own.includes(null) ? [...own, null] : own);
    if (depth < MAX_DEPTH)
      for (const key of ["oneOf", "anyOf"]) {
        const united = unionOf(part[key], (alternative) => listedValues(document, alternative, depth + 1, open));
        if (united !== undefined) values = intersect(values, united);
      }
  }
  return values;
}

/** The values a branch itself allows for the property; `undefined` where it lists none (or is met again on its own path). */
function ownValues(document: unknown, branch: unknown, property: string, depth = 0, open = new Set<unknown>()): unknown[] | undefined {
  if (open.has(branch)) return undefined;
  open.add(branch);
  try {
    return branchValues(document, branch, property, depth, open);
  } finally {
    open.delete(branch);
  }
}

function branchValues(document: unknown, branch: unknown, property: string, depth: number, open: Set<unknown>): unknown[] | undefined {
  let values: unknown[] | undefined;
  for (const schema of conjuncts(document, branch)) {
    if (depth < MAX_DEPTH)
      for (const key of ["oneOf", "anyOf"]) {
        const united = unionOf(schema[key], (alternative) => ownValues(document, alternative, property, depth + 1, open));
        if (united !== undefined) values = intersect(values, united);
      }
    const child = (schema.properties as Node | undefined)?.[property];
    if (child !== undefined && schema.properties !== null && typeof schema.properties === "object") {
      const listed = listedValues(document, child, depth, open);
      if (listed !== undefined) values = intersect(values, listed);
    }
  }
  return values;
}

function isObject(document: unknown, branch: unknown): boolean {
  return conjuncts(document, branch).some(
    (schema) => schema.type === "object" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "object"),
  );
}

/**
 * A branch's own values less those the mapping gives another branch: branches that share one
 * listed type for the property (SigNoz's query envelopes, each `type: {$ref: QueryType}`, six
 * values) are told apart by the mapping, as a server dispatching on the value tells them. Where
 * that would leave nothing, the branch's own values stand.
 */
function notMappedElsewhere(own: readonly unknown[], mapped: ReadonlyMap<string, unknown[]>, pointer: string): readonly unknown[] {
  const elsewhere = [...mapped].filter(([target]) => target !== pointer).flatMap(([, values]) => values);
  const kept = own.filter((value) => !elsewhere.includes(value));
  return kept.length > 0 ? kept : own;
}

/** How the discriminator at this schema selects its branches; `undefined` where it does not apply (inline branches, no union). */
export function selectionOf(document: unknown, schema: Node): Selection | undefined {
  const discriminator = schema.discriminator as { propertyName?: unknown; mapping?: unknown } | null | undefined;
  const property = discriminator?.propertyName;
  if (typeof property !== "string") return undefined;
  const key = Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined;
  if (key === undefined) return undefined;
  const members = schema[key] as unknown[];
  const refs = members.map((member) => (member !== null && typeof member === "object" ? (member as Node).$ref : undefined));
  if (!refs.every((ref): ref is string => typeof ref === "string" && ref.startsWith("#/"))) return undefined;
  const mapped = new Map<string, unknown[]>();
  const mapping = discriminator?.mapping;
  if (mapping !== null && typeof mapping === "object")
    for (const [value, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const pointer = target.startsWith("#")
        ? decodeURIComponent(target.slice(1))
        : `/components/schemas/${target.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      mapped.set(pointer, [...(mapped.get(pointer) ?? []), value]);
    }
  const branches = refs.map((ref, index): Branch => {
    const pointer = decodeURIComponent(ref.slice(1));
    const docRef = `doc#${encodeURI(pointer)}`;
    const own = ownValues(document, members[index], property);
    if (own !== undefined) return { ref: docRef, values: notMappedElsewhere(own, mapped, pointer), needsProperty: false };
    const byMapping = mapped.get(pointer);
    if (byMapping !== undefined) return { ref: docRef, values: byMapping, needsProperty: true };
    if (key === "oneOf" && isObject(document, members[index])) return { ref: docRef, values: [decode(pointer.split("/").pop() ?? "")], needsProperty: false };
    return { ref: docRef, needsProperty: false };
  });
  return { property, exactlyOne: key === "oneOf", branches };
}

/**
 * The document with the judge's keyword on every schema whose discriminator applies. `spelt` is
 * the document as ajv gets it (3.0's nullable spelt out as `anyOf: [schema, {type: null}]`, so a
 * nullable schema's own keywords sit one level down); the values are read from `document`, as
 * written.
 */
export function markDiscriminators(document: unknown, spelt: unknown, follow: (pointer: string) => string = (pointer) => pointer): void {
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (depth > 400 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${pointer}/${index}`, depth + 1);
      return;
    }
    const schema = node as Node;
    if (schema.discriminator !== undefined) {
      const written = selectionOf(document, schema);
      const selection = written && { ...written, branches: written.branches.map((branch) => ({ ...branch, ref: speltRef(branch.ref, follow) })) };
      let target = resolve(spelt, follow(pointer)) as Node | undefined;
      if (target && target.discriminator === undefined && Array.isArray(target.anyOf)) target = target.anyOf[0] as Node | undefined;
      if (selection && target && typeof target === "object" && target.discriminator !== undefined) {
        target[DISCRIMINATOR_KEYWORD] = selection;
        delete target[selection.exactlyOne ? "oneOf" : "anyOf"];
      }
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === "example" || key === "examples" || key === "enum" || key === "const" || key === "default") continue;
      visit(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, depth + 1);
    }
  };
  visit(document, "", 0);
}

/** Teaches ajv the judge's keyword: the branches the call's discriminator value selects decide the union. */
export function addDiscriminatorKeyword(ajv: Ajv): void {
  const compiled = new Map<string, (data: unknown) => boolean>();
  const branchAccepts = (ref: string, data: unknown): boolean => {
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref }) as (data: unknown) => boolean));
    return validate(data);
  };
  ajv.addKeyword({
    keyword: DISCRIMINATOR_KEYWORD,
    schemaType: "object",
    errors: false,
    validate: (selection: Selection, data: unknown): boolean => {
      if (data === null || typeof data !== "object" || Array.isArray(data)) return true;
      const sent = Object.hasOwn(data, selection.property);
      const value = (data as Node)[selection.property];
      let accepted = 0;
      for (const branch of selection.branches) {
        const selects = sent ? branch.values === undefined || branch.values.some((allowed) => same(allowed, value)) : !branch.needsProperty;
        if (selects && branchAccepts(branch.ref, data)) accepted++;
        if (accepted > 1 && selection.exactlyOne) return false;
      }
      return accepted > 0;
    },
  });
}
