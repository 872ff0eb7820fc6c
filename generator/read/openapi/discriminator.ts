// OpenAPI's `discriminator` over a oneOf/anyOf of `$ref`s. It is a hint that says which branch to
// pick; the branches already assert everything. Each branch is pinned to its discriminator
// value(s) so that branches that overlap cannot both match and fail `oneOf`, and so that a failed
// call is explained with the branch the value names. Which values:
//
// 1. what the branch itself asserts for the property (`const`/`enum`, found through `$ref`
//    chains and `allOf` members, and for a branch that is itself a oneOf/anyOf, the values of
//    all its alternatives): pinning to it changes nothing the branch accepts. Less the values
//    the `mapping` gives another branch, where branches share one listed type (SigNoz's
//    `type: {$ref: QueryType}` in every envelope): the value selects the branch. OpenAI's
//    unions have no `mapping`, and their branches say `role: {enum: [user]}`; pinning them to the
//    component's name (`ChatCompletionRequestUserMessage`) made every call fail;
// 2. otherwise the `mapping` entries that name the branch;
// 3. otherwise, under oneOf only, the component's name: OpenAPI's implicit value, only where the
//    branch says nothing (without it, branches that overlap would make every call fail oneOf),
//    and never making the property required where the branch does not.
//
// In case 1 nothing is added that the branch does not already assert (no `required`, no `type`
// it does not have); it refuses only a value the mapping sends to another branch, as a server
// dispatching on the value does.
//
// OpenAPI 3.2's `defaultMapping` names the branch for a call whose property is missing or names
// no branch: that branch is not pinned to values of its own; it refuses only the values that
// name another branch (it may take any other, or none).
import { decodeToken, pointerToken, resolvePointer } from "../../json-pointer.ts";
import { mapEntries } from "./referenced-map.ts";
import { Untranslatable } from "./untranslatable.ts";

type Schema = Record<string, unknown>;

const MAX_DEPTH = 32;

export function applyDiscriminator(document: unknown, source: Schema, out: Schema, pointer: string, imported: ReadonlyMap<string, string>): void {
  const discriminator = source.discriminator as { propertyName?: unknown; mapping?: unknown; defaultMapping?: unknown } | null;
  const property = discriminator?.propertyName;
  if (typeof property !== "string") throw new Untranslatable(`${pointer}/discriminator`, "discriminator needs a propertyName");
  const key = Array.isArray(source.oneOf) ? "oneOf" : Array.isArray(source.anyOf) ? "anyOf" : undefined;
  if (key === undefined) return;
  const branches = source[key] as unknown[];
  const refs = branches.map((branch) => (branch !== null && typeof branch === "object" ? (branch as Schema).$ref : undefined));
  if (!refs.every((ref): ref is string => typeof ref === "string" && ref.startsWith("#/"))) return;
  const valuesByTarget = mappingValues(discriminator?.mapping);
  const fallback = typeof discriminator?.defaultMapping === "string" ? targetPointer(discriminator.defaultMapping) : undefined;
  const values: (unknown[] | undefined)[] = [];
  let fallbackIndex = -1;
  out[key] = (out[key] as Schema[]).map((branch, index) => {
    const target = decodeURIComponent((refs[index] as string).slice(1));
    if (imported.get(target) === undefined) return branch;
    const own = assertedValues(document, branches[index], property);
    if (own !== undefined) {
      // The branch's own values: restated for the explainer, nothing added to what it asserts,
      // less the values the mapping gives another branch (branches sharing one listed type).
      // A branch that states no type (Cohere's `ChatMessage`: `required` and `properties` only)
      // is pinned as well, without a `type`: its properties apply only to an object, as written.
      const typed = isObjectSchema(document, branches[index]);
      if (own.length === 0 || (!typed && statesType(document, branches[index]))) return branch;
      const asserted = notMappedElsewhere(own, valuesByTarget, target);
      values[index] = asserted;
      const pin = { properties: { [property]: { enum: asserted } } };
      const pinned: Schema = typed ? { ...branch, type: "object", ...pin } : { ...branch, ...pin };
      if (requires(document, branches[index], property)) pinned.required = [property];
      return pinned;
    }
    if (target === fallback) {
      fallbackIndex = index;
      return branch;
    }
    const mapped = valuesByTarget.get(target);
    if (mapped !== undefined) {
      values[index] = mapped;
      return { ...branch, type: "object", properties: { [property]: { enum: mapped } }, required: [property] };
    }
    // The implicit name, which the branch itself does not assert: only under oneOf (under anyOf
    // one matching branch is enough, so no pin is needed), only on object branches (an array
    // branch cannot overlap an object one), and only where the property is sent: an instance
    // without it is judged as written.
    if (key === "anyOf" || !isObjectSchema(document, branches[index])) return branch;
    values[index] = [decodeToken(target.split("/").pop() ?? "")];
    const pinned: Schema = { ...branch, type: "object", properties: { [property]: { enum: values[index] } } };
    if (requires(document, branches[index], property)) pinned.required = [property];
    return pinned;
  });
  // The default branch takes what names no other branch: the values the others are pinned to are
  // the only ones it refuses (its own mapping values included among what it takes).
  const others = union(values.filter((listed, index): listed is unknown[] => listed !== undefined && index !== fallbackIndex));
  if (fallbackIndex >= 0 && others.length > 0) {
    const branch = (out[key] as Schema[])[fallbackIndex] as Schema;
    (out[key] as Schema[])[fallbackIndex] = { allOf: [branch], not: { type: "object", properties: { [property]: { enum: others } }, required: [property] } };
  }
}

/**
 * `own` less the values the mapping gives a branch other than `target`: SigNoz's query envelopes
 * each say `type: {$ref: QueryType}` (six values) and the mapping names one per envelope, so
 * every call fit two of them and failed `oneOf`, the vendor's own examples included. OpenAPI
 * selects the branch by the value; a server dispatching on it refuses the same calls. Where that
 * would leave nothing, `own` stands.
 */
function notMappedElsewhere(own: readonly unknown[], valuesByTarget: ReadonlyMap<string, string[]>, target: string): unknown[] {
  const elsewhere = [...valuesByTarget].filter(([pointer]) => pointer !== target).flatMap(([, mapped]) => mapped);
  const kept = own.filter((value) => !elsewhere.includes(value as string));
  return kept.length > 0 ? kept : [...own];
}

/** The schema a mapping value names: a `#` pointer, or a component's name. */
function targetPointer(target: string): string {
  return target.startsWith("#") ? decodeURIComponent(target.slice(1)) : `/components/schemas/${pointerToken(target)}`;
}

function mappingValues(mapping: unknown): Map<string, string[]> {
  const valuesByTarget = new Map<string, string[]>();
  if (mapping === null || typeof mapping !== "object") return valuesByTarget;
  for (const [value, target] of Object.entries(mapping)) {
    if (typeof target !== "string") continue;
    const pointer = targetPointer(target);
    valuesByTarget.set(pointer, [...(valuesByTarget.get(pointer) ?? []), value]);
  }
  return valuesByTarget;
}

/** The schema and every schema it must also satisfy (its `$ref` target, its `allOf` members). */
function conjuncts(document: unknown, node: unknown): Schema[] {
  const found: Schema[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || value === null || typeof value !== "object" || Array.isArray(value) || seen.has(value)) return;
    seen.add(value);
    const schema = value as Schema;
    found.push(schema);
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) visit(resolvePointer(document, decodeURIComponent(schema.$ref.slice(1))), depth + 1);
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) visit(member, depth + 1);
  };
  visit(node, 0);
  return found;
}

/**
 * The values a branch allows for `property`, where it asserts any (`const`, `enum`, intersected
 * across everything the branch must satisfy); `undefined` where it asserts none.
 *
 * `open` holds the schemas whose values are being worked out further up: a schema met again on
 * its own path (Komga's `SearchOperatorIsTrue`, an `allOf` of the `SearchOperatorBoolean` union it
 * is a branch of) asserts nothing more there. Without it the walk went round the cycle to
 * MAX_DEPTH at every branch, 2^32 calls for a union of two, and generation never ended; reading
 * it as no constraint adds nothing the branch does not assert, as everywhere here.
 */
export function assertedValues(document: unknown, branch: unknown, property: string, depth = 0, open = new Set<unknown>()): unknown[] | undefined {
  if (open.has(branch)) return undefined;
  open.add(branch);
  try {
    return ownValues(document, branch, property, depth, open);
  } finally {
    open.delete(branch);
  }
}

function ownValues(document: unknown, branch: unknown, property: string, depth: number, open: Set<unknown>): unknown[] | undefined {
  let values: unknown[] | undefined;
  const intersect = (own: readonly unknown[]): void => {
    values = values === undefined ? [...own] : values.filter((value) => own.some((other) => JSON.stringify(other) === JSON.stringify(value)));
  };
  for (const schema of conjuncts(document, branch)) {
    // A branch that is itself a union (OpenAI's `Item`: a oneOf of messages, function calls,
    // their outputs...) allows what any of its alternatives allows: the union of their values,
    // or no constraint when one of them asserts none.
    for (const key of ["oneOf", "anyOf"] as const) {
      const alternatives = schema[key];
      if (!Array.isArray(alternatives) || depth >= MAX_DEPTH) continue;
      const each = alternatives.map((alternative) => assertedValues(document, alternative, property, depth + 1, open));
      if (each.every((listed): listed is unknown[] => listed !== undefined)) intersect(union(each));
    }
    const properties = schema.properties;
    if (properties === null || typeof properties !== "object" || Array.isArray(properties)) continue;
    const child = propertySchema(document, properties as Schema, property);
    if (child === undefined) continue;
    const listed = propertyValues(document, child, depth, open);
    if (listed !== undefined) intersect(listed);
  }
  return values;
}

/** The schema of `name` in a `properties` map, a `$ref` to a map included (referenced-map.ts). */
function propertySchema(document: unknown, properties: Schema, name: string): unknown {
  try {
    return mapEntries(document, "properties", properties, "").find((entry) => entry.name === name)?.value;
  } catch {
    return Object.hasOwn(properties, name) ? properties[name] : undefined; // the translation's skip says why
  }
}

/**
 * The values a property's schema allows, where it lists them: `const`, `enum` (with 3.0's
 * nullable adding null, see allowNull), `type: "null"`, intersected over `allOf`, united over
 * `anyOf`/`oneOf` (OpenAI's `type: {anyOf: [{enum: [item_reference]}, {type: null}]}`);
 * `undefined` where any value of some type is allowed; a schema met again on its own path (`open`)
 * lists none, as in assertedValues.
 */
function propertyValues(document: unknown, schema: unknown, depth: number, open: Set<unknown>): unknown[] | undefined {
  if (open.has(schema)) return undefined;
  open.add(schema);
  try {
    return listedValues(document, schema, depth, open);
  } finally {
    open.delete(schema);
  }
}

function listedValues(document: unknown, schema: unknown, depth: number, open: Set<unknown>): unknown[] | undefined {
  let values: unknown[] | undefined;
  const intersect = (own: readonly unknown[]): void => {
    values = values === undefined ? [...own] : values.filter((value) => own.some((other) => JSON.stringify(other) === JSON.stringify(value)));
  };
  for (const part of conjuncts(document, schema)) {
    const listed = Object.hasOwn(part, "const") ? [part.const] : Array.isArray(part.enum) ? part.enum : part.type === "null" ? [null] : undefined;
    if (listed !== undefined) intersect(part.nullable === true && !listed.includes(null) ? [...listed, null] : listed);
    for (const key of ["oneOf", "anyOf"] as const) {
      const alternatives = part[key];
      if (!Array.isArray(alternatives) || depth >= MAX_DEPTH) continue;
      const each = alternatives.map((alternative) => propertyValues(document, alternative, depth + 1, open));
      if (each.every((one): one is unknown[] => one !== undefined)) intersect(union(each));
    }
  }
  return values;
}

function union(lists: readonly (readonly unknown[])[]): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const value of lists.flat()) {
    const key = JSON.stringify(value);
    if (!seen.has(key)) out.push(value);
    seen.add(key);
  }
  return out;
}

function requires(document: unknown, branch: unknown, property: string): boolean {
  return conjuncts(document, branch).some((schema) => Array.isArray(schema.required) && schema.required.includes(property));
}

/** Whether anything the branch must satisfy states a `type`. */
function statesType(document: unknown, branch: unknown): boolean {
  return conjuncts(document, branch).some((schema) => Object.hasOwn(schema, "type"));
}

function isObjectSchema(document: unknown, branch: unknown): boolean {
  return conjuncts(document, branch).some(
    (schema) => schema.type === "object" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "object"),
  );
}
