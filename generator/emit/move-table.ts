// Where a field sent at the wrong level belongs: for each object location that refuses unknown
// names, the names its nested objects (one or two levels down: `title` beside `body` instead of
// inside it, `url` beside `config`) or its parent (a path parameter sent inside `body`) accept,
// each with the relative JSON Pointer to its place. A name found in two places equally near is
// left out of the table: the model would have to guess, and the message must not. Its places are
// kept apart (`moveChoices`), for the call to tell which one is free.
import { pointerToken } from "../json-pointer.ts";
import { nullOnly } from "./nullable-union-tag.ts";
import { readings, typesOf } from "./union-branches.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";

/** Levels searched below an object. */
const DEPTH = 2;

export function moveTable(schema: Schema, parent: Schema | undefined, root: unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, targets] of nearestPlaces(schema, parent, root) ?? []) if (targets.length === 1) out[name] = targets[0] as string;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Places of one name offered at most: more are a name too common to place. The same item type
 * under many lists (Kavita's chapter: thirteen lists of people, each `{id, name, role}`) stays
 * within it: the call leaves few of them free (explain/rules/unknown-field.ts).
 */
const MAX_CHOICES = 24;

/**
 * The names `moveTable` leaves out, found in two or three places equally near, each with its
 * places (GrowthBook's `id` inside `body`: the path parameter `../id`, or `prerequisites/0/id`,
 * the item of a list whose other fields are sent flat beside it). Which one is free is known only
 * from the call (explain/rules/unknown-field.ts): a place already holding a value is not the one.
 */
export function moveChoices(schema: Schema, parent: Schema | undefined, root: unknown): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [name, targets] of nearestPlaces(schema, parent, root) ?? []) {
    if (targets.length > 1 && targets.length <= MAX_CHOICES) out[name] = targets;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Per name this object does not declare, its nearest places (sorted by name); undefined when it declares none. */
function nearestPlaces(schema: Schema, parent: Schema | undefined, root: unknown): [string, string[]][] | undefined {
  const own = propertiesOf(schema, root);
  if (own === undefined) return undefined;
  // Per name, its places and how far away they are: the nearest place wins (a body field sent at
  // the top level belongs at body/name, not at body/owner/name); places equally near are all kept.
  const found = new Map<string, { targets: string[]; distance: number }>();
  const offer = (name: string, target: string, distance: number): void => {
    if (Object.hasOwn(own, name)) return;
    const before = found.get(name);
    if (before === undefined || distance < before.distance) found.set(name, { targets: [target], distance });
    else if (distance === before.distance && !before.targets.includes(target)) before.targets.push(target);
  };
  const below = (properties: Record<string, unknown>, prefix: string, depth: number): void => {
    for (const [name, child] of Object.entries(properties)) {
      // A list of objects: an item's fields sent flat at this level belong in its first item.
      if (!isSchemaObject(child)) continue;
      const direct = propertiesOf(child, root);
      const items = direct === undefined ? itemsOf(child, root) : undefined;
      const nested = direct ?? (items === undefined ? undefined : propertiesOf(items, root));
      if (nested === undefined) continue;
      const at = `${prefix}${pointerToken(name)}/${direct === undefined ? "0/" : ""}`;
      for (const inner of Object.keys(nested)) offer(inner, `${at}${pointerToken(inner)}`, DEPTH - depth + 1);
      if (depth > 1) below(nested, at, depth - 1);
    }
  };
  below(own, "", DEPTH);
  const up = parent === undefined ? undefined : propertiesOf(parent, root);
  if (up !== undefined) for (const name of Object.keys(up)) offer(name, `../${pointerToken(name)}`, 1);
  return [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, { targets }]) => [name, targets]);
}

/**
 * The item schema of an array schema, read through its local `$ref` chain; for a list that may
 * be null (pydantic's `Optional[List[Person]]`: `anyOf: [{type: array, items}, {type: null}]`),
 * its list branch's; likewise beside a branch of scalars (a JSON text of the list).
 */
function itemsOf(schema: Schema, root: unknown): Schema | undefined {
  for (const view of readings(schema, root)) {
    if (isSchemaObject(view.items)) return view.items;
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const branches = view[keyword];
      if (!Array.isArray(branches) || !branches.every((branch) => isSchemaObject(branch))) continue;
      // A list that may also be sent as its JSON text (CloudBase's sort: `anyOf: [{type: array,
      // items}, {type: string}]`): a branch of scalars holds no fields, so the list is their place.
      const lists = branches.filter((branch) => !nullOnly(branch as Schema) && !scalarOnly(branch as Schema, root));
      if (lists.length === 1 && lists.length < branches.length) return itemsOf(lists[0] as Schema, root);
    }
  }
  return undefined;
}

const SCALARS = new Set(["string", "number", "integer", "boolean", "null"]);

/** Whether a union branch takes scalar values only (`{type: string}`): no field can be in it. */
function scalarOnly(branch: Schema, root: unknown): boolean {
  return readings(branch, root).some((view) => {
    const types = typesOf(view);
    return (types?.every((type) => SCALARS.has(type)) ?? false) && !("properties" in view) && !("items" in view);
  });
}

/**
 * The `properties` of an object schema, read through its local `$ref` chain; for a union of
 * objects (GitHub's bodies that are a `oneOf`), every name some branch accepts. Every reading of
 * the chain counts, as JSON Schema 2020-12 applies a `$ref` and its siblings both: a union member
 * written `{$ref: WhatsApp, properties: {channel: {enum: [...]}}}` (toolguard's translation of a
 * `discriminator` pins the tag beside the reference) accepts the target's names too. Where two
 * readings declare a name, the nearer one's schema is kept.
 */
export function propertiesOf(schema: Schema, root: unknown, depth = 0): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = {};
  for (const view of readings(schema, root)) {
    const own = viewProperties(view, root, depth);
    if (own !== undefined) for (const [name, child] of Object.entries(own)) if (!Object.hasOwn(merged, name)) merged[name] = child;
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The names one reading declares: its `properties`, its `allOf` parts', or (at the top and one union down) its union branches'. */
function viewProperties(view: Schema, root: unknown, depth: number): Record<string, unknown> | undefined {
  const union = Array.isArray(view.oneOf) || Array.isArray(view.anyOf);
  if (isSchemaObject(view.properties) && !Array.isArray(view.allOf) && (!union || depth > 1)) return view.properties;
  // `allOf: [{$ref: Base}, {properties}]`, as many vendors compose a body: every part's names.
  if (Array.isArray(view.allOf) && depth < 4) {
    const merged: Record<string, unknown> = isSchemaObject(view.properties) ? { ...view.properties } : {};
    for (const part of view.allOf) if (isSchemaObject(part)) Object.assign(merged, propertiesOf(part, root, depth + 1) ?? {});
    if (Object.keys(merged).length > 0) return merged;
  }
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = view[keyword];
    // A branch may itself be a union (Notion's `parent`: `anyOf: [{$ref: parentRequest}, string]`,
    // parentRequest a `oneOf` of three objects): its branches' names count too, one level down.
    if (depth > 1 || !Array.isArray(branches)) continue;
    // Fields of its own beside the union (Lithic's auth rule request: `state` and `name`, then
    // an `anyOf` of account, card or program rules, each with its own lists): both sets count.
    const merged: Record<string, unknown> = {};
    for (const branch of branches) if (isSchemaObject(branch)) Object.assign(merged, propertiesOf(branch, root, depth + 1) ?? {});
    if (isSchemaObject(view.properties)) Object.assign(merged, view.properties);
    if (Object.keys(merged).length > 0) return merged;
  }
  return isSchemaObject(view.properties) ? view.properties : undefined;
}
