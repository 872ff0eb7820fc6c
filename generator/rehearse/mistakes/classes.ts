// The mistakes models make, as mutations of a valid call, each with the fix the envelope must
// carry (in the literal repairer's grammar) or, where no value is determined, what it must say.
// Every class is generic: it reads only the schema and the valid call, never a tool's name.
import type { CorpusCase, Expected } from "../mistake-case.ts";
import { misspellings, readsAsOneOf } from "../misspell.ts";
import { closed, deref, isSchema, pointer, propertiesOf, requiredOf, type Schema, typesOf } from "./schema-view.ts";
import type { Seeded } from "./seeded.ts";
import { SHAPE_CLASSES } from "./shape-classes.ts";
import { placeElsewhere, valueAtTokens } from "./other-places.ts";
import { syntacticMistakes } from "./syntactic.ts";
import { unionBranch } from "./union-branch.ts";

/** One value of the valid call with the schema that applies to it. */
export interface Leaf {
  readonly path: readonly string[];
  readonly value: unknown;
  readonly schema: Schema;
  /** The object holding it, when it is a property. */
  readonly parent?: Schema;
  readonly required: boolean;
  readonly union?: true;
}

/**
 * Every value of `value` with its schema, through `$ref`s. A union's value is one leaf, marked so;
 * it is entered only where the value determines its branch (`unionBranch`), as the null or one
 * value of pydantic's `Optional[...]` does, and the branch's values are then leaves as any others.
 */
function leaves(value: unknown, schema: unknown, root: Schema, at: string[] = [], required = true, parent?: Schema, depth = 0): Leaf[] {
  const node = deref(schema, root);
  if (node === undefined) return [];
  // A union's value is one leaf, marked so: only the classes about unions act on it.
  if (node.anyOf !== undefined || node.oneOf !== undefined || node.allOf !== undefined) {
    if (node.allOf !== undefined) return [];
    const out: Leaf[] = [{ path: at, value, schema: node, required, union: true, ...(parent ? { parent } : {}) }];
    const branch = depth < 8 ? unionBranch(node, value, root) : undefined;
    if (branch !== undefined) out.push(...leaves(value, branch, root, at, required, parent, depth + 1));
    return out;
  }
  const out: Leaf[] = [{ path: at, value, schema: node, required, ...(parent ? { parent } : {}) }];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) out.push(...leaves(item, node.items, root, [...at, String(index)], true, undefined, depth));
  } else if (isSchema(value)) {
    const properties = propertiesOf(node);
    const needed = requiredOf(node);
    for (const [key, child] of Object.entries(value)) out.push(...leaves(child, properties[key], root, [...at, key], needed.includes(key), node, depth));
  }
  return out;
}

export function setAt(args: unknown, tokens: readonly string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const copy = structuredClone(args) as Record<string, unknown>;
  let node = copy;
  for (const token of tokens.slice(0, -1)) node = node[token] as Record<string, unknown>;
  const last = tokens[tokens.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const isNumberType = (schema: Schema): boolean => {
  const types = typesOf(schema);
  return (types.includes("integer") || types.includes("number")) && !types.includes("string");
};
const nullable = (schema: Schema): boolean => typesOf(schema).includes("null") || schema.nullable === true;
const hasConstraints = (schema: Schema): boolean => schema.pattern !== undefined || schema.format !== undefined;

/** Units and marks models attach to numbers, by how the field reads. */
const MARKS = [(n: number) => `${n} kg`, (n: number) => `${n}°`, (n: number) => `#${n}`, (n: number) => `+${n}`, (n: number) => `${n} items`];

export type Maker = (leaf: Leaf, valid: unknown, random: Seeded, all: readonly Leaf[], root: Schema) => readonly [args: unknown, expect: Expected] | undefined;

export const set = (tokens: readonly string[], value: unknown): Expected => ({ op: "set", path: pointer(tokens), value });

/** The classes, by name. Each returns one case for a leaf, or nothing when the leaf does not fit. */
export const CLASSES: Readonly<Record<string, Maker>> = {
  "number with a unit or sign": (leaf, valid, random) => {
    if (typeof leaf.value !== "number" || !Number.isInteger(leaf.value) || leaf.value < 0 || !isNumberType(leaf.schema) || leaf.path.length === 0)
      return undefined;
    return [setAt(valid, leaf.path, random.pick(MARKS)(leaf.value)), set(leaf.path, leaf.value)];
  },
  "boolean as a Python literal": (leaf, valid) => {
    if (typeof leaf.value !== "boolean" || typesOf(leaf.schema).includes("string")) return undefined;
    return [setAt(valid, leaf.path, leaf.value ? "True" : "False"), set(leaf.path, leaf.value)];
  },
  "Python None for an optional field": (leaf, valid) => {
    if (leaf.required || leaf.path.length === 0 || typesOf(leaf.schema).includes("string") || typesOf(leaf.schema).length === 0 || leaf.schema.enum)
      return undefined;
    return [setAt(valid, leaf.path, "None"), { op: "remove", path: pointer(leaf.path) }];
  },
  "null for an optional field": (leaf, valid) => {
    if (leaf.required || leaf.path.length === 0 || nullable(leaf.schema) || typesOf(leaf.schema).length === 0) return undefined;
    return [setAt(valid, leaf.path, null), { op: "remove", path: pointer(leaf.path) }];
  },
  "allowed value in another case": (leaf, valid) => {
    if (typeof leaf.value !== "string" || !Array.isArray(leaf.schema.enum)) return undefined;
    const wrong = leaf.value === leaf.value.toUpperCase() ? leaf.value.toLowerCase() : leaf.value.toUpperCase();
    if (wrong === leaf.value || leaf.schema.enum.includes(wrong)) return undefined;
    if (leaf.schema.enum.filter((v) => typeof v === "string" && v.toLowerCase() === wrong.toLowerCase()).length > 1) return undefined;
    return [setAt(valid, leaf.path, wrong), set(leaf.path, leaf.value)];
  },
  "allowed value misspelt": (leaf, valid, random) => {
    if (typeof leaf.value !== "string" || !Array.isArray(leaf.schema.enum)) return undefined;
    const options = misspellings(
      leaf.value,
      leaf.schema.enum.filter((v): v is string => typeof v === "string"),
    );
    return options.length === 0 ? undefined : [setAt(valid, leaf.path, random.pick(options)), set(leaf.path, leaf.value)];
  },
  "allowed value abbreviated": (leaf, valid) => {
    if (typeof leaf.value !== "string" || !Array.isArray(leaf.schema.enum) || leaf.value.length < 6 || !/^[a-z]/i.test(leaf.value)) return undefined;
    const values = leaf.schema.enum.filter((v): v is string => typeof v === "string");
    const short = leaf.value.slice(0, 3);
    if (values.some((other) => other !== leaf.value && other.toLowerCase().startsWith(short.toLowerCase()))) return undefined;
    return [setAt(valid, leaf.path, short), set(leaf.path, leaf.value)];
  },
  "field name misspelt": (leaf, valid, random) => {
    if (leaf.parent === undefined || !closed(leaf.parent) || leaf.path.length === 0) return undefined;
    const name = leaf.path[leaf.path.length - 1] as string;
    const options = misspellings(name, Object.keys(propertiesOf(leaf.parent)));
    if (options.length === 0) return undefined;
    const wrong = random.pick(options);
    const moved = setAt(setAt(valid, leaf.path, undefined), [...leaf.path.slice(0, -1), wrong], leaf.value);
    return [moved, { op: "rename", path: pointer([...leaf.path.slice(0, -1), wrong]), to: name }];
  },
  "field name abbreviated": (leaf, valid) => {
    if (leaf.parent === undefined || !closed(leaf.parent) || leaf.path.length === 0) return undefined;
    const name = leaf.path[leaf.path.length - 1] as string;
    if (name.length < 7 || !/^[a-z]+$/i.test(name)) return undefined;
    const short = name.slice(0, 3);
    if (Object.keys(propertiesOf(leaf.parent)).some((other) => other !== name && other.toLowerCase().startsWith(short.toLowerCase()))) return undefined;
    const moved = setAt(setAt(valid, leaf.path, undefined), [...leaf.path.slice(0, -1), short], leaf.value);
    return [moved, { op: "rename", path: pointer([...leaf.path.slice(0, -1), short]), to: name }];
  },
  "unknown field added": (leaf, valid) => {
    if (!isSchema(leaf.value) || !closed(leaf.schema)) return undefined;
    const extra = "zz_note";
    return [setAt(valid, [...leaf.path, extra], "see above"), { op: "remove", path: pointer([...leaf.path, extra]) }];
  },
  "required field missing": (leaf, valid, _random, all) => {
    if (!leaf.required || leaf.path.length === 0 || leaf.parent === undefined) return undefined;
    // The branch a union's value selects stands at the union's path, and its one listed value is
    // not the field's only one (changedetection.io's `from_timestamp`: an integer, or the one
    // word "previous"): the field is a missing fact.
    const branch = all.some((other) => other.union && other.path.join("/") === leaf.path.join("/"));
    // A field with one allowed value is no missing fact: the schema determines it, and the message must send it.
    const only = branch
      ? undefined
      : "const" in leaf.schema
        ? [leaf.schema.const]
        : Array.isArray(leaf.schema.enum) && leaf.schema.enum.length === 1
          ? leaf.schema.enum
          : undefined;
    if (only !== undefined) return [setAt(valid, leaf.path, undefined), set(leaf.path, only[0])];
    return [setAt(valid, leaf.path, undefined), { op: "ask", path: pointer(leaf.path) }];
  },
  "one value where a list is wanted": (leaf, valid) => {
    if (!Array.isArray(leaf.value) || leaf.value.length !== 1 || typeof leaf.value[0] === "object" || (leaf.schema.minItems === undefined && false))
      return undefined;
    const items = isSchema(leaf.schema.items) ? leaf.schema.items : undefined;
    if (items === undefined || Object.keys(items).some((key) => !["type", "description", "title", "examples", "default"].includes(key))) return undefined;
    return [setAt(valid, leaf.path, leaf.value[0]), set(leaf.path, leaf.value)];
  },
  "list where one value is wanted": (leaf, valid) => {
    if (typeof leaf.value !== "string" || leaf.path.length === 0 || typesOf(leaf.schema).includes("array")) return undefined;
    return [setAt(valid, leaf.path, [leaf.value]), set(leaf.path, leaf.value)];
  },
  "object or list sent as JSON text": (leaf, valid) => {
    if (leaf.path.length === 0 || leaf.value === null || typeof leaf.value !== "object" || typesOf(leaf.schema).includes("string")) return undefined;
    if (Array.isArray(leaf.value) ? leaf.value.length === 0 : Object.keys(leaf.value).length === 0) return undefined;
    return [setAt(valid, leaf.path, JSON.stringify(leaf.value)), set(leaf.path, leaf.value)];
  },
  "number out of bounds": (leaf, valid) => {
    if (typeof leaf.value !== "number" || !isNumberType(leaf.schema)) return undefined;
    if (typeof leaf.schema.maximum === "number")
      return [setAt(valid, leaf.path, leaf.schema.maximum + 1), { op: "mention", path: pointer(leaf.path), text: `<= ${leaf.schema.maximum}` }];
    if (typeof leaf.schema.minimum === "number" && leaf.schema.minimum > -1e9)
      return [setAt(valid, leaf.path, leaf.schema.minimum - 1), { op: "mention", path: pointer(leaf.path), text: `>= ${leaf.schema.minimum}` }];
    return undefined;
  },
  "text too long": (leaf, valid) => {
    if (typeof leaf.value !== "string" || typeof leaf.schema.maxLength !== "number" || leaf.schema.maxLength > 500 || hasConstraints(leaf.schema))
      return undefined;
    return [
      setAt(valid, leaf.path, "x".repeat(leaf.schema.maxLength + 1)),
      { op: "mention", path: pointer(leaf.path), text: `at most ${leaf.schema.maxLength}` },
    ];
  },
  "uuid without its dashes": (leaf, valid) => {
    if (typeof leaf.value !== "string" || leaf.schema.format !== "uuid" || !leaf.value.includes("-")) return undefined;
    return [setAt(valid, leaf.path, leaf.value.replaceAll("-", "")), set(leaf.path, leaf.value)];
  },
  "date written another way": (leaf, valid) => {
    const match = typeof leaf.value === "string" && leaf.schema.format === "date" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(leaf.value) : null;
    if (match === null || Number(match[3]) <= 12) return undefined;
    return [setAt(valid, leaf.path, `${match[3]}/${match[2]}/${match[1]}`), set(leaf.path, leaf.value)];
  },
  "value of a union of listed values misspelt": (leaf, valid, random, _all, root) => {
    if (!leaf.union || typeof leaf.value !== "string") return undefined;
    const branches = (leaf.schema.anyOf ?? leaf.schema.oneOf) as unknown[];
    const values: string[] = [];
    for (const branch of branches) {
      const view = deref(branch, root);
      if (view === undefined) return undefined;
      if (typeof view.const === "string") values.push(view.const);
      else if (Array.isArray(view.enum) && view.enum.every((v) => typeof v === "string")) values.push(...(view.enum as string[]));
      else return undefined;
    }
    if (!values.includes(leaf.value)) return undefined;
    const options = [...misspellings(leaf.value, values), leaf.value.toUpperCase() === leaf.value ? leaf.value.toLowerCase() : leaf.value.toUpperCase()].filter(
      (wrong) => !values.includes(wrong) && values.filter((v) => v.toLowerCase() === wrong.toLowerCase()).length <= 1,
    );
    return options.length === 0 ? undefined : [setAt(valid, leaf.path, random.pick(options)), set(leaf.path, leaf.value)];
  },
  "list item's fields sent flat": (leaf, valid, _random, _all, root) => {
    // A list of one object, its fields sent beside the list's name instead (the list left out).
    if (leaf.parent === undefined || !closed(leaf.parent) || !Array.isArray(leaf.value) || leaf.value.length !== 1 || !isSchema(leaf.value[0]))
      return undefined;
    const item = leaf.value[0] as Record<string, unknown>;
    const keys = Object.keys(item);
    const siblings = Object.keys(propertiesOf(leaf.parent));
    // A key that also reads as a sibling's misspelling (`path` beside `patch`) has two plausible intents: not this class.
    if (keys.length === 0 || keys.some((key) => siblings.includes(key) || readsAsOneOf(key, siblings))) return undefined;
    const holder = leaf.path.slice(0, -1);
    // Another list or object beside it that could take the same fields: no envelope could tell which was meant.
    const list = leaf.path[leaf.path.length - 1] as string;
    if (placeElsewhere({ parent: leaf.parent, list, keys, sent: valueAtTokens(valid, holder) }, root)) return undefined;
    let args = setAt(valid, leaf.path, undefined);
    for (const key of keys) args = setAt(args, [...holder, key], item[key]);
    return [args, { op: "move", from: pointer([...holder, keys[0] as string]), to: pointer([...leaf.path, "0", keys[0] as string]) }];
  },
  "field one level too high": (leaf, valid) => {
    // A field of a nested object sent beside that object, in an object that refuses unknown names.
    if (leaf.path.length < 2 || leaf.parent === undefined) return undefined;
    const holder = leaf.path.slice(0, -1);
    const name = leaf.path[leaf.path.length - 1] as string;
    const grand = holder.length >= 1 ? holder.slice(0, -1) : undefined;
    if (grand === undefined || /^\d+$/.test(holder[holder.length - 1] as string)) return undefined;
    // A name the object above already holds (Prowlarr's `id`, a path parameter and a body field):
    // the move would overwrite that value, and no envelope could tell the call meant.
    let above: unknown = valid;
    for (const token of grand) above = isSchema(above) ? above[token] : undefined;
    if (isSchema(above) && Object.hasOwn(above, name)) return undefined;
    return [setAt(setAt(valid, leaf.path, undefined), [...grand, name], leaf.value), { op: "move", from: pointer([...grand, name]), to: pointer(leaf.path) }];
  },
};

/** At most this many cases of one class per tool. */
const PER_CLASS = 2;

export function mistakesOf(tool: string, source: string, schema: Schema, valid: unknown, random: Seeded): CorpusCase[] {
  const all = leaves(valid, schema, schema);
  const out: CorpusCase[] = [];
  // An OpenAPI tool's body (toolguard puts it under `body`) sent as the call itself: every field at the top level.
  const body = isSchema(valid) ? valid["body"] : undefined;
  if (isSchema(valid) && isSchema(body) && Object.keys(body).length > 0) {
    const top = Object.keys(propertiesOf(schema));
    const keys = Object.keys(body);
    if (!keys.some((key) => top.includes(key))) {
      const { body: _body, ...params } = valid;
      const first = keys[0] as string;
      out.push({
        id: `${tool}: body fields at the top level 0`,
        source,
        tool,
        mistake: "body fields at the top level",
        args: { ...params, ...body },
        expect: { op: "move", from: pointer([first]), to: pointer(["body", first]) },
      });
    }
  }
  out.push(...syntacticMistakes(tool, source, valid, random));
  for (const [mistake, make] of Object.entries({ ...CLASSES, ...SHAPE_CLASSES })) {
    let made = 0;
    for (const leaf of all) {
      if (made >= PER_CLASS) break;
      // Classes about one value's type or name do not act on a union's value: its branch is not known.
      if (leaf.union && !mistake.includes("union")) continue;
      const result = make(leaf, valid, random, all, schema);
      if (result === undefined) continue;
      out.push({ id: `${tool}: ${mistake} ${made}`, source, tool, mistake, args: result[0], expect: result[1] });
      made++;
    }
  }
  return out;
}
