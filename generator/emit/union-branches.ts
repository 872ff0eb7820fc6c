// What the branches of an `anyOf`/`oneOf` accept, as far as the generator can prove it: whether
// no value can pass two of them (so "exactly one" and "at least one" agree), and whether one
// property tells them apart (a discriminator), so that a failure can be explained with the
// errors of the branch the model meant.
//
// Two branches are disjoint when their `type`s share no value (`integer` lies inside `number`),
// or when both accept only objects, one of them requires a property, and the values the two
// allow for it (`const` or `enum`, as OpenAPI discriminators are translated) have nothing in
// common. A branch is read both as written and through its local `$ref` chain (GitHub's rule
// unions are lists of `$ref`s): each reading accepts at least what the branch does, so two
// readings that are disjoint prove the branches are.
import { resolveLocalRef } from "../json-pointer.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";

const TYPE_NAMES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

/** The type names a schema's `type` keyword allows, or undefined when it sets none it can read. */
export function typesOf(schema: Schema): readonly string[] | undefined {
  const type = schema.type;
  const names = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  if (!names || names.length === 0 || !names.every((name) => typeof name === "string" && TYPE_NAMES.has(name))) return undefined;
  return names as string[];
}

/** Most `$ref`s followed from one branch: enough for aliases, bounded for cycles. */
const MAX_REF_HOPS = 8;

/** `branch` and the schemas its local `$ref` chain leads to (`#/$defs/...`). */
export function readings(branch: Schema, root: unknown): readonly Schema[] {
  const found = [branch];
  for (let node = branch; found.length <= MAX_REF_HOPS; ) {
    const ref = node.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) break;
    const target = resolveLocalRef(root, ref);
    if (!isSchemaObject(target) || found.includes(target)) break;
    found.push((node = target));
  }
  return found;
}

/** Every pair of branches, each given as its readings, is disjoint. */
export function pairwiseDisjoint(branches: readonly (readonly Schema[])[]): boolean {
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i] as readonly Schema[];
      const b = branches[j] as readonly Schema[];
      if (!a.some((left) => b.some((right) => disjoint(left, right)))) return false;
    }
  }
  return true;
}

function disjoint(a: Schema, b: Schema): boolean {
  const typesA = typesOf(a);
  const typesB = typesOf(b);
  if (typesA === undefined || typesB === undefined) return false;
  if (!typesA.some((name) => typesB.some((other) => typesOverlap(name, other)))) return true;
  return onlyObjects(typesA) && onlyObjects(typesB) && discriminated(a, b);
}

function typesOverlap(a: string, b: string): boolean {
  return a === b || (a === "number" && b === "integer") || (a === "integer" && b === "number");
}

function onlyObjects(types: readonly string[]): boolean {
  return types.every((name) => name === "object");
}

/**
 * One of them requires a property whose allowed scalar values the two keep apart: a value that
 * passed both would hold that property with a value both allow.
 */
function discriminated(a: Schema, b: Schema): boolean {
  for (const name of new Set([...requiredNames(a), ...requiredNames(b)])) {
    const valuesA = allowedScalars(a, name);
    const valuesB = allowedScalars(b, name);
    if (valuesA && valuesB && !valuesA.some((value) => valuesB.some((other) => sameScalar(value, other)))) return true;
  }
  return false;
}

function requiredNames(schema: Schema): readonly string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
}

type Scalar = string | number | boolean | null;

/** The values `properties[name]` allows through `const` or `enum`, when all are scalars. */
function allowedScalars(schema: Schema, name: string): readonly Scalar[] | undefined {
  const properties = schema.properties;
  if (!isSchemaObject(properties) || !Object.hasOwn(properties, name)) return undefined;
  const property = properties[name];
  if (!isSchemaObject(property)) return undefined;
  const values = "const" in property ? [property.const] : Array.isArray(property.enum) ? property.enum : undefined;
  return values?.every(isScalar) ? values : undefined;
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  // JSON Schema compares numbers by value: 1 and 1.0 are one value, and so are 0 and -0.
  return a === b;
}

/** A union whose branches one required string property tells apart. */
export interface Discriminator {
  readonly property: string;
  /** Per branch, in order: the property's values that select it. */
  readonly branches: readonly { readonly values: readonly string[] }[];
}

/**
 * The discriminator of `branches`, if every branch accepts only objects, requires one property,
 * allows it only string values (`const`/`enum`), and no two branches share a value: then that
 * value alone says which branch a value was meant for.
 */
export function discriminatorOf(branches: readonly Schema[], root: unknown): Discriminator | undefined {
  const read = branches.map((branch) => readings(branch, root));
  if (read.length < 2 || !read.every((views) => views.some((view) => onlyObjects(typesOf(view) ?? [])))) return undefined;
  for (const property of requiredNames(read[0]?.find((view) => requiredNames(view).length > 0) ?? {})) {
    const values = read.map((views) => (views.some((view) => requiredNames(view).includes(property)) ? stringValues(views, property) : undefined));
    if (!values.every((list): list is readonly string[] => list !== undefined)) continue;
    const all = values.flat();
    if (new Set(all).size !== all.length) continue; // two branches share a value
    return {
      property,
      branches: values.map((list) => ({ values: list })),
    };
  }
  return undefined;
}

/**
 * A tag that no branch requires: a property every branch declares with its own string values
 * (`const`/`enum`), no two branches sharing one (Box's AI taxonomy sources, `type: file` or
 * `type: taxonomy`, both optional). Used only where a value fits more than one branch: the tag
 * then says which. Undefined where `discriminatorOf` finds a required one.
 */
export function optionalTagOf(branches: readonly Schema[], root: unknown): Discriminator | undefined {
  const read = branches.map((branch) => readings(branch, root));
  if (read.length < 2 || !read.every((views) => views.some((view) => onlyObjects(typesOf(view) ?? [])))) return undefined;
  const first = read[0]?.find((view) => isSchemaObject(view.properties));
  for (const property of isSchemaObject(first?.properties) ? Object.keys(first.properties) : []) {
    const values = read.map((views) => stringValues(views, property));
    if (!values.every((list): list is readonly string[] => list !== undefined && list.length > 0)) continue;
    const all = values.flat();
    if (new Set(all).size !== all.length) continue;
    return { property, branches: values.map((list) => ({ values: list })) };
  }
  return undefined;
}

/** The string values a branch's readings allow `property`, from the first reading that says. */
function stringValues(views: readonly Schema[], property: string): readonly string[] | undefined {
  for (const view of views) {
    const values = allowedScalars(view, property);
    if (values) return values.every((value) => typeof value === "string") ? (values as string[]) : undefined;
  }
  return undefined;
}
