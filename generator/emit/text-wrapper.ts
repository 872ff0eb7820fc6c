// Where a schema wants an object that only wraps one text (`{"name": ...}` for a team, the
// `{"text": {"content": ...}}` of rich text), or a list of such objects, a model often sends the
// text alone. The wrapper is then determined: every required field is fixed by the schema
// (a `const`, an `enum` of one) or is an object of the same kind, except one plain text field.
// The hint holds that wrapper with the text's place, so the error can offer the exact value to
// send, built from the text received, without reading the schema on the failure path.
import type { JsonValue } from "../../templates/runtime/contract/tool-spec.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { readings, typesOf } from "./union-branches.ts";

/** Deepest wrapper followed (rich text nests two levels). */
const MAX_DEPTH = 3;

export interface TextWrapper {
  /** The wrapper with `""` where the text goes. */
  readonly template: JsonValue;
  /** The text's place in `template`, as property names. */
  readonly at: readonly string[];
  /** The schema wants a list of wrappers: the one wrapper goes in brackets. */
  readonly list?: true;
  /** The text's own length bounds: a text outside them is not offered wrapped. */
  readonly minLength?: number;
  readonly maxLength?: number;
}

/**
 * The wrapper a text determines at `schema` (an object, or an array of objects), or undefined.
 * `parent`: the object `schema` is a property of, if any (for `namesakeOf`).
 */
export function textWrapperOf(schema: Schema, root: unknown, parent?: Schema): TextWrapper | undefined {
  // A nullable wrapper (`type: [object, null]`, as OpenAPI 3.1 writes `nullable`) wraps the text alike.
  const types = typesOf(schema)?.filter((type) => type !== "null");
  if (types?.length === 1 && types[0] === "array" && isSchemaObject(schema.items)) {
    const items = resolved(schema.items, root);
    const item = wrapperOf(items, root, 0) ?? branchWrapperOf(items, root);
    return item === undefined ? undefined : { ...item, list: true };
  }
  // A union of objects, with no type of its own (octocode's npm queries: `anyOf: [{packageName},
  // {keywords}]`, each closed) or typed `object` (Iceberg's `ViewRequirement`: `type: object` and
  // a discriminated `oneOf` of one `AssertViewUUID`), sent a text: the one member that wraps a text,
  // as for a list's items.
  // The members' fields must be the whole object: a union beside fields of its own is not read.
  const ownFields = schema.properties !== undefined || schema.required !== undefined;
  if (types?.length === 1 && types[0] === "object")
    return wrapperOf(schema, root, 0) ?? (ownFields ? undefined : branchWrapperOf(schema, root)) ?? namesakeOf(schema, root, parent);
  return types === undefined ? branchWrapperOf(schema, root) : undefined;
}

/**
 * An object that requires nothing and declares a plain text of the very name it is held under
 * (listmonk's campaign preview: `body: {template_id, content_type, body}`): a text sent for the
 * object is that field's, one level too high, so it goes in it.
 */
function namesakeOf(schema: Schema, root: unknown, parent: Schema | undefined): Found | undefined {
  const held = isSchemaObject(parent?.properties) ? Object.entries(parent.properties).find(([, property]) => property === schema)?.[0] : undefined;
  if (held === undefined || !isSchemaObject(schema.properties) || schema.anyOf || schema.oneOf || schema.allOf || schema.minProperties !== undefined)
    return undefined;
  if (Array.isArray(schema.required) && schema.required.length > 0) return undefined;
  const property = (schema.properties as Record<string, unknown>)[held];
  const view = isSchemaObject(property) ? resolved(property, root) : undefined;
  if (view === undefined || !isPlainText(view)) return undefined;
  return {
    template: { [held]: "" },
    at: [held],
    ...(typeof view.minLength === "number" ? { minLength: view.minLength } : {}),
    ...(typeof view.maxLength === "number" ? { maxLength: view.maxLength } : {}),
  };
}

function resolved(schema: Schema, root: unknown): Schema {
  const all = readings(schema, root);
  return all[all.length - 1] as Schema;
}

interface Found {
  template: JsonValue;
  at: string[];
  minLength?: number;
  maxLength?: number;
}

function wrapperOf(schema: Schema, root: unknown, depth: number): Found | undefined {
  if (depth > MAX_DEPTH || !isSchemaObject(schema.properties) || schema.anyOf || schema.oneOf || schema.allOf) return undefined;
  const types = typesOf(schema)?.filter((type) => type !== "null");
  if (types !== undefined && (types.length !== 1 || types[0] !== "object")) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  if (required.length === 0 || schema.minProperties !== undefined) return undefined;
  const template: Record<string, JsonValue> = {};
  let at: string[] | undefined;
  let bounds: Pick<Found, "minLength" | "maxLength"> = {};
  for (const name of required) {
    const property = (schema.properties as Record<string, unknown>)[name];
    if (!isSchemaObject(property)) return undefined;
    const view = resolved(property, root);
    const only = fixedValue(view);
    if (only !== undefined) {
      template[name] = only;
      continue;
    }
    if (isPlainText(view)) {
      if (at !== undefined) return undefined; // two texts: which one the model sent is not determined
      at = [name];
      template[name] = "";
      if (typeof view.minLength === "number") bounds = { ...bounds, minLength: view.minLength };
      if (typeof view.maxLength === "number") bounds = { ...bounds, maxLength: view.maxLength };
      continue;
    }
    const inner = wrapperOf(view, root, depth + 1);
    if (inner === undefined) return undefined;
    if (inner.at.length > 0) {
      if (at !== undefined) return undefined;
      at = [name, ...inner.at];
      bounds = {
        ...(inner.minLength === undefined ? {} : { minLength: inner.minLength }),
        ...(inner.maxLength === undefined ? {} : { maxLength: inner.maxLength }),
      };
    }
    template[name] = inner.template;
  }
  return at === undefined ? undefined : { template, at, ...bounds };
}

/**
 * The wrapper of the one branch of a union of items that is one (Notion's title items: `anyOf:
 * [{$ref: richTextRequest}, {type: string}, {type: object}]`, the `$ref` read through). Under
 * `oneOf` only when no other branch could take an object: the wrapper must single its branch out.
 */
function branchWrapperOf(schema: Schema, root: unknown): Found | undefined {
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || !branches.every(isSchemaObject)) continue;
    const views = branches.map((branch) => resolved(branch, root));
    const wrappers = views.map((view) => wrapperOf(view, root, 0));
    const found = wrappers.filter((wrapper) => wrapper !== undefined);
    if (found.length !== 1) return undefined;
    if (keyword === "oneOf" && views.some((view, index) => wrappers[index] === undefined && (typesOf(view)?.includes("object") ?? true))) return undefined;
    return found[0];
  }
  return undefined;
}

function fixedValue(schema: Schema): JsonValue | undefined {
  if ("const" in schema) return schema.const as JsonValue;
  return Array.isArray(schema.enum) && schema.enum.length === 1 ? (schema.enum[0] as JsonValue) : undefined;
}

/** A string with no rule a text received for something else might break. */
function isPlainText(schema: Schema): boolean {
  const types = typesOf(schema);
  return types?.length === 1 && types[0] === "string" && schema.enum === undefined && schema.pattern === undefined && schema.format === undefined;
}
