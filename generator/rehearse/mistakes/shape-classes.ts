// The classes about shapes and meanings: a synonym of an allowed value, a sibling field's value,
// a union member's tag left out or wrong, a misspelt key inside a union member, and a plain
// string where a wrapper object (rich text) is wanted. Like classes.ts, each reads only the
// schema and the valid call, and names its case's fix only when the schema and the mistake
// determine it.
import { normaliseNearMiss } from "../../../templates/runtime/explain/near-miss.ts";
import { synonymOf } from "../../../templates/runtime/explain/synonyms.ts";
import type { Expected } from "../mistake-case.ts";
import { misspellings } from "../misspell.ts";
import { type Leaf, type Maker, set, setAt } from "./classes.ts";
import { closed, deref, isSchema, pointer, propertiesOf, requiredOf, type Schema, typesOf } from "./schema-view.ts";

/** What models write for a value, by the value meant: plain English for the same thing. */
const SAID_FOR: Readonly<Record<string, readonly string[]>> = {
  asc: ["ascending"],
  desc: ["descending"],
  ascending: ["increasing"],
  descending: ["decreasing"],
  yes: ["true"],
  no: ["false"],
  true: ["yes"],
  false: ["no"],
  enabled: ["on"],
  disabled: ["off"],
  on: ["enabled"],
  off: ["disabled"],
  delete: ["remove"],
  remove: ["delete"],
  create: ["add"],
  add: ["create"],
  update: ["edit"],
  edit: ["update"],
  get: ["fetch"],
  markdown: ["md"],
  md: ["markdown"],
  text: ["plain"],
  jpeg: ["jpg"],
  jpg: ["jpeg"],
  large: ["big"],
  small: ["little"],
  all: ["any"],
  any: ["all"],
  start: ["begin"],
  end: ["finish"],
};

const normal = (text: string): string => text.toLowerCase().replace(/[\s_-]+/g, "");

function stringsOf(schema: Schema): string[] {
  return Array.isArray(schema.enum) ? schema.enum.filter((v): v is string => typeof v === "string") : [];
}

/** The object branches of a union leaf, dereferenced; undefined when one is not an object schema. */
function objectBranches(leaf: Leaf, root: Schema): Schema[] | undefined {
  return unionObjectBranches(leaf.schema, root);
}

/** The object branches of a union schema, dereferenced (nested unions flattened); undefined when it has none. */
export function unionObjectBranches(union: Schema, root: Schema): Schema[] | undefined {
  const list = (union.anyOf ?? union.oneOf) as unknown[] | undefined;
  if (!Array.isArray(list)) return undefined;
  const out: Schema[] = [];
  // A branch that is itself a union (a `$ref` to a `oneOf`) contributes its own branches.
  const add = (branches: readonly unknown[], depth: number): void => {
    for (const branch of branches) {
      const view = deref(branch, root);
      if (view === undefined) continue;
      const inner = view.anyOf ?? view.oneOf;
      if (Array.isArray(inner) && depth < 3) add(inner, depth + 1);
      else if (typesOf(view).includes("object")) out.push(view);
    }
  };
  add(list, 0);
  return out.length > 0 ? out : undefined;
}

/** The single value a property schema allows (`const`, or an `enum` of one). */
function onlyValue(schema: unknown, root: Schema): string | undefined {
  const view = deref(schema, root);
  if (view === undefined) return undefined;
  if (typeof view.const === "string") return view.const;
  return Array.isArray(view.enum) && view.enum.length === 1 && typeof view.enum[0] === "string" ? view.enum[0] : undefined;
}

/** A property every branch declares with one distinct string value: the union's tag. */
export function tagOf(branches: readonly Schema[], root: Schema): { name: string; values: string[] } | undefined {
  if (branches.length < 2) return undefined;
  for (const name of Object.keys(propertiesOf(branches[0] as Schema))) {
    const values = branches.map((branch) => onlyValue(propertiesOf(branch)[name], root));
    if (values.every((v): v is string => v !== undefined) && new Set(values).size === values.length) return { name, values };
  }
  return undefined;
}

/** The branch `value` was made from (its tag's), and a key of it no other branch declares. */
function ownBranch(leaf: Leaf, root: Schema) {
  if (!isSchema(leaf.value)) return undefined;
  const branches = objectBranches(leaf, root);
  const tag = branches && tagOf(branches, root);
  if (branches === undefined || tag === undefined) return undefined;
  const index = tag.values.indexOf(leaf.value[tag.name] as string);
  if (index < 0) return undefined;
  const own = Object.keys(leaf.value).find(
    (key) => key !== tag.name && branches.every((branch, i) => i === index || !Object.hasOwn(propertiesOf(branch), key)),
  );
  return { branches, tag, index, own };
}

export const SHAPE_CLASSES: Readonly<Record<string, Maker>> = {
  "allowed value as a synonym": (leaf, valid) => {
    if (typeof leaf.value !== "string" || !Array.isArray(leaf.schema.enum)) return undefined;
    const values = stringsOf(leaf.schema);
    const said = (SAID_FOR[normal(leaf.value)] ?? []).find((word) => !values.some((v) => normal(v) === normal(word)));
    // The synonym must stand for this value alone: no other allowed value is also a word for it.
    if (said === undefined || values.some((v) => v !== leaf.value && (SAID_FOR[normal(v)] ?? []).includes(said))) return undefined;
    // Nor does another listed value, of any type, share the word's meaning as the explainer reads
    // it (synonyms.ts): "enabled" beside "true", "yes" and "on", or "false" beside `false` and
    // "off" (changedetection.io's and Netdata's flags), could mean any of them.
    const others = (leaf.schema.enum as unknown[]).filter((v) => v !== leaf.value);
    if (others.some((v) => synonymOf(said, [normaliseNearMiss(String(v))]) !== undefined || normal(String(v)) === normal(said))) return undefined;
    return [setAt(valid, leaf.path, said), set(leaf.path, leaf.value)];
  },
  "value of a sibling field": (leaf, valid, _random, _all, root) => {
    // An optional field sent a value only a sibling (not in the call) allows: it belongs there.
    if (leaf.required || leaf.parent === undefined || typeof leaf.value !== "string" || !Array.isArray(leaf.schema.enum)) return undefined;
    const values = stringsOf(leaf.schema);
    const holder = leaf.path.slice(0, -1);
    const at = holder.reduce<unknown>((node, token) => (isSchema(node) ? node[token] : undefined), valid);
    if (!isSchema(at)) return undefined;
    const name = leaf.path[leaf.path.length - 1] as string;
    const candidates: [string, string][] = [];
    for (const [sibling, schema] of Object.entries(propertiesOf(leaf.parent))) {
      if (sibling === name || Object.hasOwn(at, sibling)) continue;
      const view = deref(schema, root);
      if (view === undefined) continue;
      for (const value of stringsOf(view)) if (!values.some((v) => normal(v) === normal(value))) candidates.push([sibling, value]);
    }
    // One sibling only may take the value, and it reads as no allowed value of this field.
    const fits = candidates.filter(([, value], _i, all) => all.filter(([, other]) => other === value).length === 1);
    const pick = fits.find(([, value]) =>
      values.every((v) => !normal(v).startsWith(normal(value).slice(0, 3)) && !normal(value).startsWith(normal(v).slice(0, 3))),
    );
    if (pick === undefined) return undefined;
    const [sibling, value] = pick;
    return [setAt(valid, leaf.path, value), { op: "move", from: pointer(leaf.path), to: pointer([...holder, sibling]) } satisfies Expected];
  },
  "union member with its tag left out": (leaf, valid, _random, _all, root) => {
    if (!leaf.union) return undefined;
    const found = ownBranch(leaf, root);
    if (found?.own === undefined) return undefined;
    return [setAt(valid, [...leaf.path, found.tag.name], undefined), set([...leaf.path, found.tag.name], found.tag.values[found.index])];
  },
  "union member with a wrong tag": (leaf, valid, random, _all, root) => {
    if (!leaf.union) return undefined;
    const found = ownBranch(leaf, root);
    if (found?.own === undefined) return undefined;
    const others = found.tag.values.filter((_v, i) => i !== found.index);
    return [setAt(valid, [...leaf.path, found.tag.name], random.pick(others)), set([...leaf.path, found.tag.name], found.tag.values[found.index])];
  },
  "field name misspelt in a union member": (leaf, valid, random, _all, root) => {
    if (!leaf.union || !isSchema(leaf.value)) return undefined;
    const branches = objectBranches(leaf, root);
    if (branches === undefined) return undefined;
    const found = ownBranch(leaf, root);
    // The member's branch: named by its tag, or the union's only object branch.
    const branch = found ? branches[found.index] : branches.length === 1 ? branches[0] : undefined;
    if (branch === undefined) return undefined;
    const names = Object.keys(propertiesOf(branch));
    for (const key of Object.keys(leaf.value)) {
      // In an object open to other names, a misspelt key is an error only when the key is required.
      if (key === found?.tag.name || (!closed(branch) && !requiredOf(branch).includes(key))) continue;
      const options = misspellings(key, names).filter((wrong) => branches.every((other) => !Object.hasOwn(propertiesOf(other), wrong)));
      if (options.length === 0) continue;
      const wrong = random.pick(options);
      const moved = setAt(setAt(valid, [...leaf.path, key], undefined), [...leaf.path, wrong], leaf.value[key]);
      const from = pointer([...leaf.path, wrong]);
      return [moved, closed(branch) ? { op: "rename", path: from, to: key } : { op: "move", from, to: pointer([...leaf.path, key]) }];
    }
    return undefined;
  },
  "plain text where a wrapper is wanted": (leaf, valid, _random, all, root) => {
    // An object (or a list of one) that only wraps one text: every key required, every other
    // value fixed by the schema. The model sends the text alone; the wrapper is determined.
    if (leaf.path.length === 0 || leaf.union) return undefined;
    // A union member, where another member wraps one text too (Cloudinary's visual search: an
    // `image_url`, an `image_asset_id` or a `text`): the text alone could go in either.
    const union = all.find((other) => other.union && other.path.join("/") === leaf.path.join("/"));
    if (union !== undefined && branchesOf(union.schema, root).filter((branch) => wrapsOneText(branch, root)).length > 1) return undefined;
    const item = Array.isArray(leaf.value) && leaf.value.length === 1 ? leaf.value[0] : leaf.value;
    const itemSchema = Array.isArray(leaf.value) ? deref(leaf.schema.items, root) : leaf.schema;
    if (!isSchema(item) || itemSchema === undefined || typesOf(leaf.schema).includes("string")) return undefined;
    const texts: string[] = [];
    const wrapper = minimalWrapper(item, itemSchema, root, texts);
    if (wrapper === undefined || texts.length !== 1) return undefined;
    return [setAt(valid, leaf.path, texts[0]), set(leaf.path, Array.isArray(leaf.value) ? [wrapper] : wrapper)];
  },
};

/** A union's branches, dereferenced. */
function branchesOf(schema: Schema, root: Schema): Schema[] {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return branches.map((branch) => deref(branch, root)).filter((branch): branch is Schema => branch !== undefined);
}

/** Whether an object schema is a wrapper of one text: required keys fixed, or the one free text, or such an object again. */
function wrapsOneText(schema: Schema, root: Schema): boolean {
  return textsIn(schema, root, 0) === 1;
}

/** How many free texts a wrapper schema holds (as `minimalWrapper` reads a value); undefined when it is no wrapper. */
function textsIn(schema: Schema, root: Schema, depth: number): number | undefined {
  const required = requiredOf(schema);
  if (depth > 3 || required.length === 0) return undefined;
  let texts = 0;
  for (const key of required) {
    const child = deref(propertiesOf(schema)[key], root);
    if (child === undefined) return undefined;
    if (onlyValue(child, root) !== undefined) continue;
    if (typesOf(child).join() === "string" && child.enum === undefined && child.pattern === undefined && child.format === undefined) texts++;
    else {
      const inner = typesOf(child).join() === "object" ? textsIn(child, root, depth + 1) : undefined;
      if (inner === undefined) return undefined;
      texts += inner;
    }
  }
  return texts;
}

/**
 * The object `value` is with its required keys only, when each is a fixed value, a free text
 * (collected in `texts`) or such an object again: the one wrapper a text determines. Undefined otherwise.
 */
function minimalWrapper(value: Record<string, unknown>, schema: Schema, root: Schema, texts: string[], depth = 0): Record<string, unknown> | undefined {
  const required = requiredOf(schema);
  if (depth > 3 || required.length === 0 || required.some((key) => !Object.hasOwn(value, key))) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of required) {
    const child = deref(propertiesOf(schema)[key], root);
    const item = value[key];
    if (child === undefined) return undefined;
    const only = onlyValue(child, root);
    if (only !== undefined) out[key] = only;
    else if (
      typeof item === "string" &&
      typesOf(child).join() === "string" &&
      child.enum === undefined &&
      child.pattern === undefined &&
      child.format === undefined
    ) {
      texts.push(item);
      out[key] = item;
    } else if (isSchema(item)) {
      const inner = minimalWrapper(item, child, root, texts, depth + 1);
      if (inner === undefined) return undefined;
      out[key] = inner;
    } else return undefined;
  }
  return out;
}
