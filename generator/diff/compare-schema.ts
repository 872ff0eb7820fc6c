// Compares two input schemas of one tool by what they accept, keyword family by keyword family
// (types and values here; bounds, objects, arrays and unions in their own modules), and says
// for each difference whether calls that were valid stay valid (models) and whether the
// implementation's argument type still fits (tool teams).
import type { Schema } from "../schema-walk.ts";
import type { Change } from "./change.ts";
import { compareArrays } from "./compare-arrays.ts";
import { compareBounds } from "./compare-bounds.ts";
import { type At, type CompareContext, report, where } from "./compare-context.ts";
import { compareObjects } from "./compare-objects.ts";
import { compareUnions } from "./compare-unions.ts";
import { isAnnotation, isBareUnion } from "./keywords.ts";
import { canonical, deref, shown } from "./schema-view.ts";

/** Every change between the old and the new input schema of one tool, in walk order. */
export function compareSchemas(oldRoot: Schema, newRoot: Schema): Change[] {
  const ctx: CompareContext = {
    oldRoot,
    newRoot,
    changes: [],
    seen: new Set(),
    compare: (oldNode, newNode, at) => compareNode(ctx, oldNode, newNode, at),
    trial: (oldNode, newNode, at) => {
      // Its own list and its own record of pairs seen, all the way down: nothing leaks into ctx,
      // and pairs the main walk has seen are still judged here.
      const aside: CompareContext = { ...ctx, changes: [], seen: new Set(), compare: (a, b, here) => compareNode(aside, a, b, here) };
      compareNode(aside, oldNode, newNode, at);
      return aside.changes;
    },
  };
  compareNode(ctx, oldRoot, newRoot, { path: "", oldPointer: "", newPointer: "" });
  return ctx.changes;
}

function compareNode(ctx: CompareContext, oldNode: unknown, newNode: unknown, at: At): void {
  const a = deref(ctx.oldRoot, oldNode, at.oldPointer);
  const b = deref(ctx.newRoot, newNode, at.newPointer);
  const here: At = { path: at.path, oldPointer: a.pointer, newPointer: b.pointer };
  const pair = `${a.pointer}\0${b.pointer}`;
  if (ctx.seen.has(pair)) return;
  ctx.seen.add(pair);
  const oldText = canonical(a.node);
  // Equal text is equal meaning only when no reference inside can point somewhere different.
  if (oldText === canonical(b.node) && !oldText.includes('"$ref"')) return;
  if (a.node === false || b.node === false) {
    compareBooleans(ctx, b.node, here);
    return;
  }
  const oldSchema = a.node === true ? {} : a.node;
  const newSchema = b.node === true ? {} : b.node;
  // A shape that became a bare union (or one that was): the union comparison tries the old
  // shape against each branch; comparing the bare union's absent keywords would only repeat it.
  if (isBareUnion(oldSchema) === isBareUnion(newSchema)) {
    compareTypes(ctx, oldSchema, newSchema, here);
    compareValues(ctx, oldSchema, newSchema, here);
    compareBounds(ctx, oldSchema, newSchema, here);
    compareObjects(ctx, oldSchema, newSchema, here);
    compareArrays(ctx, oldSchema, newSchema, here);
  }
  compareUnions(ctx, oldSchema, newSchema, here);
  compareAnnotations(ctx, oldSchema, newSchema, here);
  compareUnknown(ctx, oldSchema, newSchema, here);
}

// One side is `false` (and the two differ), so the new side alone says which way it went.
function compareBooleans(ctx: CompareContext, b: Schema | boolean, at: At): void {
  if (b === false) {
    report(ctx, at, { keyword: "", toolTeams: "breaking", models: "breaking", message: `${where(at.path)} now accepts no value at all (schema false)` });
  } else {
    report(ctx, at, {
      keyword: "",
      toolTeams: "breaking",
      models: "none",
      message: `${where(at.path)} was refused outright (schema false) and is now accepted: the model may now send it`,
    });
  }
}

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"] as const;

/**
 * The JSON types a schema accepts, or `undefined` when its `type` does not say and a union or
 * reference decides (the union comparison speaks for those).
 */
function acceptedTypes(schema: Schema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  if (values) return new Set(values.map(jsonType));
  if (["anyOf", "oneOf", "allOf", "$ref", "not", "if"].some((keyword) => keyword in schema)) return undefined;
  return new Set(ALL_TYPES);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether `types` accepts every value of JSON type `type` (a number type accepts integers). */
function covers(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

/** The TypeScript types the implementation sees: integers are numbers there. */
function tsTypes(types: Set<string>): string {
  return [...new Set([...types].map((t) => (t === "integer" ? "number" : t)))].sort().join(" | ");
}

function compareTypes(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  // Types read off enum values on both sides would only restate the value comparison.
  if (!("type" in a) && !("type" in b)) return;
  const before = acceptedTypes(a);
  const after = acceptedTypes(b);
  if (!before || !after) return;
  const lost = [...before].filter((type) => !covers(after, type));
  const gained = [...after].filter((type) => !covers(before, type));
  if (lost.length === 0 && gained.length === 0) return;
  const tsBefore = tsTypes(before);
  const tsAfter = tsTypes(after);
  const toolTeams = tsBefore !== tsAfter ? "breaking" : gained.length > 0 ? "possibly" : "none";
  const typeText =
    toolTeams === "breaking"
      ? ` (the argument type changes from ${tsBefore} to ${tsAfter})`
      : gained.includes("number")
        ? " (the implementation may now receive fractions)"
        : "";
  if (lost.length > 0) {
    const fractions = lost.length === 1 && lost[0] === "number" && covers(after, "integer");
    report(ctx, at, {
      keyword: "type",
      toolTeams,
      models: "breaking",
      message: `${where(at.path)}: type narrowed, ${fractions ? "fractional numbers are" : `${lost.join(", ")} ${lost.length === 1 ? "is" : "are"}`} no longer accepted${typeText}`,
    });
  } else {
    report(ctx, at, {
      keyword: "type",
      toolTeams,
      models: "none",
      message: `${where(at.path)}: type widened, the model may now send ${gained.join(" or ")}${typeText}`,
    });
  }
}

/** `enum` and `const`, as one set of allowed values. */
function allowedValues(schema: Schema): Map<string, unknown> | undefined {
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  return values && new Map(values.map((value) => [canonical(value), value]));
}

function compareValues(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const before = allowedValues(a);
  const after = allowedValues(b);
  if (!before && !after) return;
  const keyword = "enum" in b || (!("const" in b) && "enum" in a) ? "enum" : "const";
  const inOld = !after;
  if (before && after) {
    const removed = [...before].filter(([key]) => !after.has(key)).map(([, value]) => value);
    const added = [...after].filter(([key]) => !before.has(key)).map(([, value]) => value);
    if (removed.length > 0) {
      report(ctx, at, {
        keyword,
        toolTeams: "possibly",
        models: "breaking",
        message: `${where(at.path)}: ${list(removed)} no longer allowed (calls sending ${removed.length === 1 ? "it" : "them"} now fail; the argument's literal type loses ${removed.length === 1 ? "it" : "them"})`,
      });
    }
    if (added.length > 0) {
      report(ctx, at, {
        keyword,
        toolTeams: "possibly",
        models: "none",
        message: `${where(at.path)}: the model may now send ${list(added)} (the implementation may now receive ${added.length === 1 ? "it" : "them"}: check exhaustive switches)`,
      });
    }
    return;
  }
  if (after) {
    report(ctx, at, {
      keyword,
      toolTeams: "possibly",
      models: "breaking",
      message: `${where(at.path)}: now restricted to ${list([...after.values()])}; other values that passed now fail`,
    });
  } else {
    report(ctx, at, {
      keyword,
      inOld,
      toolTeams: "possibly",
      models: "none",
      message: `${where(at.path)}: no longer restricted to ${list([...(before as Map<string, unknown>).values()])}; the model may now send other values`,
    });
  }
}

function list(values: readonly unknown[]): string {
  const shownValues = values.slice(0, 8).map((value) => shown(value, 40));
  return values.length > 8 ? `${shownValues.join(", ")} and ${values.length - 8} more` : shownValues.join(", ");
}

function compareAnnotations(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const keywords = new Set([...Object.keys(a), ...Object.keys(b)].filter((keyword) => isAnnotation(keyword)));
  for (const keyword of [...keywords].sort()) {
    if (canonical(a[keyword]) === canonical(b[keyword])) continue;
    const inOld = !(keyword in b);
    const what = !(keyword in a)
      ? `added: ${shown(b[keyword])}`
      : inOld
        ? "removed"
        : keyword === "description" || keyword === "title"
          ? `now ${shown(b[keyword])}`
          : `${shown(a[keyword], 30)} -> ${shown(b[keyword], 30)}`;
    const note = keyword === "default" ? " (the guard never fills defaults; the model reads it)" : "";
    report(ctx, at, { keyword, kind: "annotation", inOld, toolTeams: "none", models: "none", message: `${where(at.path)}: ${keyword} ${what}${note}` });
  }
}

/** Keywords some module above reads; the rest are compared as opaque values. */
const HANDLED = new Set([
  "type",
  "enum",
  "const",
  "$ref",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
  "$vocabulary",
  "x-toolguard-reference",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "unevaluatedItems",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
]);

function compareUnknown(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const keywords = new Set([...Object.keys(a), ...Object.keys(b)].filter((keyword) => !HANDLED.has(keyword) && !isAnnotation(keyword)));
  for (const keyword of [...keywords].sort()) {
    if (canonical(a[keyword]) === canonical(b[keyword])) continue;
    report(ctx, at, {
      keyword,
      inOld: !(keyword in b),
      toolTeams: "possibly",
      models: "possibly",
      message: `${where(at.path)}: keyword ${keyword} changed, which this comparison does not interpret`,
    });
  }
}
