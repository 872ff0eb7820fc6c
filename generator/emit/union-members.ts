// What singles out one branch of an `anyOf`/`oneOf` when the value names none: its JSON type
// (`3` against `number | null` is a number that broke the number branch's rule), or a property
// name only that branch knows (a rule sent without its `type`, whose other fields are those of
// one kind). Read by templates/runtime/explain/alternatives.ts.
import { readings, typesOf } from "./union-branches.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { literalPatternWords } from "./literal-pattern.ts";

const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"] as const;

/** JSON type -> the one branch accepting it, or undefined when a branch's types cannot be read. */
export function typeBranches(branches: readonly Schema[], root: unknown): Record<string, number> | undefined {
  const types = branches.map((branch) => branchTypes(branch, root));
  if (types.some((list) => list === undefined)) return undefined;
  const out: Record<string, number> = {};
  for (const type of TYPES) {
    const accepting = types.flatMap((list, index) => (list?.some((name) => name === type || (type === "integer" && name === "number")) ? [index] : []));
    // A fractional number sent to an integer-only union is still meant for that branch.
    const numeric = type === "number" && accepting.length === 0 ? types.flatMap((list, index) => (list?.includes("integer") ? [index] : [])) : accepting;
    if (numeric.length === 1) out[type] = numeric[0] as number;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `["object"]` when every branch takes objects only (Mistral's judge `output`, TGI's request
 * body: a `oneOf` of objects, told apart by their fields): no branch is singled out by the JSON
 * type, yet a value of another type (a JSON text of the object) fits none, and the union rule
 * reads it against this. Undefined for any other union.
 */
export function objectsOnly(branches: readonly Schema[], root: unknown): readonly string[] | undefined {
  const types = branches.map((branch) => branchTypes(branch, root));
  return branches.length > 1 && types.every((list) => list !== undefined && list.length > 0 && list.every((type) => type === "object"))
    ? ["object"]
    : undefined;
}

/** The types a branch accepts: its own `type`, or the union of its nested union's branches. */
function branchTypes(branch: Schema, root: unknown): readonly string[] | undefined {
  for (const view of readings(branch, root)) {
    const own = typesOf(view);
    if (own) return own;
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const inner = view[keyword];
      if (!Array.isArray(inner) || !inner.every(isSchemaObject)) continue;
      const all = inner.map((member) => branchTypes(member, root));
      if (all.every((list) => list !== undefined)) return [...new Set(all.flat() as string[])];
    }
  }
  return undefined;
}

/** Property name -> the one object branch that has it, for names no other branch has. */
export function memberKeys(branches: readonly Schema[], root: unknown): Record<string, number> | undefined {
  // Names one level down count too (`parameters/required_approving_review_count`): GitHub's
  // rule kinds share their top-level names and differ in their parameters.
  const names = branches.map((branch) => {
    const properties = propertiesOf(branch, root);
    if (properties === undefined) return [];
    // A name a branch declares only to forbid it (zod's `never`: Paddle's item `{priceId, price:
    // {not: {}}}` beside `{price, priceId: {not: {}}}`) is one the branch does not take.
    return Object.entries(properties).flatMap(([name, child]) => {
      if (forbidden(child, root)) return [];
      const inner = isSchemaObject(child) ? propertiesOf(child, root) : undefined;
      return [name, ...Object.keys(inner ?? {}).map((key) => `${name}/${key}`)];
    });
  });
  const count = new Map<string, number>();
  for (const list of names) for (const name of list) count.set(name, (count.get(name) ?? 0) + 1);
  const out: Record<string, number> = {};
  names.forEach((list, index) => {
    for (const name of list) if (count.get(name) === 1) out[name] = index;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

const ANNOTATIONS = new Set(["description", "title", "$comment", "deprecated"]);

/** Whether a property's schema admits no value: `false`, or `not: {}` (`not: true`) alone. */
function forbidden(schema: unknown, root: unknown): boolean {
  if (schema === false) return true;
  if (!isSchemaObject(schema)) return false;
  return readings(schema, root).some(
    (view) =>
      (view.not === true || (isSchemaObject(view.not) && Object.keys(view.not).length === 0)) &&
      Object.keys(view).every((keyword) => keyword === "not" || ANNOTATIONS.has(keyword)),
  );
}

/**
 * The properties a branch declares, over all its readings: a translated discriminator's branch
 * (`{$ref: "#/$defs/SkillReference", properties: {type: {enum: ["skill_reference"]}}}`) names
 * only its tag beside the `$ref`, whose target declares the member's own fields; both apply.
 */
function propertiesOf(schema: Schema, root: unknown): Record<string, unknown> | undefined {
  let merged: Record<string, unknown> | undefined;
  for (const view of readings(schema, root)) {
    if (!isSchemaObject(view.properties)) continue;
    merged = merged === undefined ? view.properties : { ...view.properties, ...merged };
  }
  return merged;
}

/**
 * The words a string branch lists (`enum` or `const`, strings only, up to `max`, or a pattern that
 * spells its texts out: `^new$`); undefined for any other string.
 */
export function wordsOf(branch: Schema, root: unknown, max: number): string[] | undefined {
  const views = readings(branch, root);
  if (views.some((view) => view.format !== undefined)) return undefined;
  const patterns = views.flatMap((view) => (view.pattern === undefined ? [] : [view.pattern]));
  const view = views.find((reading) => "const" in reading || Array.isArray(reading.enum));
  if (patterns.length > 0) return view === undefined && patterns.length === 1 ? literalWords(patterns[0], max) : undefined;
  const values: unknown[] | undefined = view === undefined ? undefined : "const" in view ? [view.const] : (view.enum as unknown[]);
  if (values === undefined || values.length > max || !values.every((value) => typeof value === "string")) return undefined;
  return values as string[];
}

function literalWords(pattern: unknown, max: number): string[] | undefined {
  const words = typeof pattern === "string" ? literalPatternWords(pattern) : undefined;
  return words !== undefined && words.length <= max ? words : undefined;
}
