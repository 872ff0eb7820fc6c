// A valid instance of a tool's input schema, built from the schema alone and seeded: documented
// examples and defaults first, else a value made from the type, the format and the bounds. The
// caller checks it with the tool's validator and drops the tool when it fails (a pattern, say):
// every mistake starts from a call the guard accepts.
import { FORMAT_EXAMPLES } from "../../../templates/runtime/explain/format-examples.ts";
import { patternInstance } from "./pattern-instance.ts";
import { deref, isSchema, propertiesOf, requiredOf, type Schema, typesOf } from "./schema-view.ts";
import type { Seeded } from "./seeded.ts";

const MAX_DEPTH = 8;

/**
 * How deep the value is; whether documented examples and defaults may be used (not on the later
 * tries); and which try this is, which picks the branch of each union (the first on the first try).
 */
export interface InstanceContext {
  readonly depth: number;
  readonly documented: boolean;
  readonly attempt?: number;
}

const TOP: InstanceContext = { depth: 0, documented: true };

export function instanceOf(schema: unknown, root: Schema, random: Seeded, context: InstanceContext = TOP): unknown {
  const node = deref(schema, root);
  if (node === undefined || context.depth > MAX_DEPTH) return undefined;
  const deeper: InstanceContext = { ...context, depth: context.depth + 1 };
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return random.pick(node.enum.filter((value) => value !== null));
  for (const key of context.documented ? (["examples", "example", "default"] as const) : []) {
    const documented = key === "examples" ? (Array.isArray(node.examples) ? node.examples[0] : undefined) : node[key];
    // A vendor's example of another type than its schema's (`example: 123` on a string) would make
    // every try fail the same way: it is passed over, and the value is made from the type instead.
    if (documented !== undefined && documented !== null && typeof documented !== "object" && fitsTypes(documented, typesOf(node))) return documented;
  }
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches)) {
      const usable = branches.filter((branch) => !typesOf(deref(branch, root) ?? {}).includes("null"));
      const branch = usable[(context.attempt ?? 0) % Math.max(1, usable.length)];
      if (branch !== undefined) return instanceOf(withOwnFields(node, deref(branch, root)), root, random, deeper);
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    const scalar = scalarAllOf(node, root);
    if (scalar !== undefined) return instanceOf(scalar, root, random, deeper);
    const merged: Schema = { ...node, allOf: undefined, properties: { ...propertiesOf(node) }, required: [...requiredOf(node)] };
    for (const part of node.allOf) {
      const view = deref(part, root);
      if (view === undefined) continue;
      // A part that is a union (`allOf: [{$ref: Content}, {description}]` where Content is a
      // oneOf of objects) holds its fields in a branch: the first usable one is merged in, so
      // the call satisfies it rather than being an empty object that fits no branch.
      const branch = unionBranchOf(view, root);
      for (const fields of branch === undefined ? [view] : [view, branch]) {
        // A field the schema or an earlier part states (`action: {const: "assign-uuid"}` beside
        // `allOf: [{$ref: BaseUpdate}]`, whose `action` is any text) keeps that statement.
        merged.properties = { ...propertiesOf(fields), ...(merged.properties as Schema) };
        (merged.required as string[]).push(...requiredOf(fields));
        if (merged.type === undefined && fields.type !== undefined) merged.type = fields.type;
      }
    }
    delete merged.allOf;
    return instanceOf(merged, root, random, deeper);
  }
  const type = typesOf(node).find((candidate) => candidate !== "null");
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = requiredOf(node);
      for (const [name, property] of Object.entries(propertiesOf(node))) {
        if (!required.includes(name) && random.next() < 0.4) continue;
        const value = instanceOf(property, root, random, deeper);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case "array": {
      const count = Math.max(1, typeof node.minItems === "number" ? node.minItems : 1);
      const items: unknown[] = [];
      for (let i = 0; i < count; i++) items.push(instanceOf(node.items, root, random, deeper));
      return items.some((item) => item === undefined) ? undefined : items;
    }
    case "string":
      return stringOf(node, random);
    case "integer":
    case "number":
      return numberOf(node, type === "integer");
    case "boolean":
      return random.next() < 0.5;
    default:
      return undefined;
  }
}

/** Whether `value` matches `pattern` as JSON Schema reads it (a pattern that does not compile matches nothing). */
function fits(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}

/** Whether a documented scalar is of one of the schema's types (any, when it declares none). */
function fitsTypes(value: unknown, types: readonly string[]): boolean {
  if (types.length === 0) return true;
  const type = typeof value;
  if (type === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  return types.includes(type);
}

/**
 * An `allOf` that composes no object (`allOf: [{$ref: BfdMode}]` beside a description, OpenAPI
 * 3.0's `$ref` with siblings, or of a union of texts such as Oxide's `NameOrId`), as one schema:
 * its parts' keywords, then its own. Merging fields would lose the part's enum, format or branches.
 */
function scalarAllOf(node: Schema, root: Schema): Schema | undefined {
  const parts = (node.allOf as unknown[]).map((part) => deref(part, root)).filter((part) => part !== undefined);
  const objectLike = (schema: Schema): boolean => "properties" in schema || "required" in schema || typesOf(schema).includes("object");
  if (objectLike(node) || parts.some(objectLike)) return undefined;
  const { allOf: _composed, ...own } = node;
  return Object.assign({}, ...parts, own) as Schema;
}

/**
 * A union's branch with the fields the union states beside its branches (Iceberg's
 * `ReportMetricsRequest`: `anyOf` of two reports and `required: [report-type]`), which every
 * branch must hold too.
 */
function withOwnFields(node: Schema, branch: Schema | undefined): Schema | undefined {
  if (branch === undefined || (!("properties" in node) && !("required" in node))) return branch;
  return { ...branch, properties: { ...propertiesOf(branch), ...propertiesOf(node) }, required: [...requiredOf(branch), ...requiredOf(node)] };
}

/** The first branch, not null, of a union part of an `allOf` that declares no fields of its own. */
function unionBranchOf(view: Schema, root: Schema): Schema | undefined {
  if (Object.keys(propertiesOf(view)).length > 0) return undefined;
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = view[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const resolved = deref(branch, root);
      if (resolved !== undefined && !typesOf(resolved).includes("null")) return resolved;
    }
  }
  return undefined;
}

function stringOf(schema: Schema, random: Seeded): string {
  const formatted = typeof schema.format === "string" ? FORMAT_EXAMPLES[schema.format] : undefined;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  // A patterned string (an id, a code) gets a value its pattern accepts, unless the format's
  // example already fits it. Unseeded: one string per pattern, so the seeded draws of the other
  // fields are the same with or without a pattern. A pattern no string was built for falls through.
  if (typeof schema.pattern === "string" && !(formatted !== undefined && fits(schema.pattern, formatted))) {
    const patterned = patternInstance(schema.pattern, { minLength: min, maxLength: max });
    if (patterned !== undefined) return patterned;
  }
  if (formatted !== undefined) return formatted;
  const base = random.pick(["example", "hello world", "sample text", "alpha"]);
  let text = base;
  while (text.length < min) text += base;
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

function numberOf(schema: Schema, integer: boolean): number {
  const min = safe(typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : undefined);
  const max = safe(typeof schema.maximum === "number" ? schema.maximum : typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum - 1 : undefined);
  let n = min !== undefined ? Math.max(min, Math.min(max ?? min + 4, min + 4)) : max !== undefined ? Math.min(max, 5) : 5;
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) n = Math.ceil(n / schema.multipleOf) * schema.multipleOf;
  return integer ? Math.ceil(n) : n;
}

/**
 * A bound past 2^53 (int64's limits, as OpenAPI documents write them) is no bound a call can be
 * near: JSON numbers there lose their digits, and the guard rightly refuses them.
 */
function safe(bound: number | undefined): number | undefined {
  return bound !== undefined && Math.abs(bound) <= Number.MAX_SAFE_INTEGER ? bound : undefined;
}

export { isSchema };
