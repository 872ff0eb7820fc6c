// Builds the error-hint table of a tool: for each schema location, what an error message there
// can offer the model (allowed values, near misses, one canonical example, the allowed keys,
// the description of a required field). Computed once at build time so a failed call never
// walks the schema.
import type { HintTable, JsonValue, SchemaHint } from "../../templates/runtime/contract/tool-spec.ts";
import type { ToolDescription } from "../ir.ts";
import { normaliseNearMiss } from "../../templates/runtime/explain/near-miss.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { FORMAT_EXAMPLES } from "../../templates/runtime/explain/format-examples.ts";
import { isSchemaObject, walkSchemas, type Schema } from "../schema-walk.ts";
import { discriminatorOf } from "./union-branches.ts";

/** Enums up to this size are listed in full; larger ones get one example. */
export const MAX_LISTED_VALUES = 12;
/** Allowed keys listed for an unknown-key error, at most. */
const MAX_LISTED_KEYS = 40;
/** Descriptions are cut to this length: the message is a prompt, not documentation. */
const MAX_DESCRIPTION = 160;

export function buildHintTable(tool: ToolDescription): HintTable {
  const table: Record<string, SchemaHint> = {};
  walkSchemas(tool.inputSchema, (schema, location) => {
    const hint = hintFor(schema, tool.inputSchema);
    if (Object.keys(hint).length > 0) table[location] = hint;
  });
  return table;
}

function hintFor(schema: Schema, root: unknown): SchemaHint {
  const hint: {
    -readonly [K in keyof SchemaHint]: SchemaHint[K];
  } = {};
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === "string") : undefined;
  if (types) hint.types = types;
  const values = Array.isArray(schema.enum) ? (schema.enum as JsonValue[]) : "const" in schema ? [schema.const as JsonValue] : undefined;
  if (values && values.length <= MAX_LISTED_VALUES) hint.allowed = values;
  if (values) {
    const nearMisses = nearMissesOf(values);
    if (Object.keys(nearMisses).length > 0) hint.nearMisses = nearMisses;
  }
  if (typeof schema.format === "string") hint.format = schema.format;
  if (!hint.allowed) {
    const example = exampleOf(schema, values);
    if (example !== undefined) hint.example = example;
  }
  if (isSchemaObject(schema.properties)) {
    const names = Object.keys(schema.properties);
    if ((schema.additionalProperties === false || schema.unevaluatedProperties === false) && names.length <= MAX_LISTED_KEYS) {
      hint.properties = names;
    }
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    const descriptions: Record<string, string> = {};
    const examples: Record<string, JsonValue> = {};
    for (const name of required) {
      const property = (schema.properties as Record<string, unknown>)[name];
      if (!isSchemaObject(property)) continue;
      if (typeof property.description === "string" && property.description.trim() !== "") {
        descriptions[name] = shorten(property.description.trim());
      }
      const example = exampleOf(property, Array.isArray(property.enum) ? (property.enum as JsonValue[]) : undefined);
      if (example !== undefined) examples[name] = example;
    }
    if (Object.keys(descriptions).length > 0) hint.propertyDescriptions = descriptions;
    if (Object.keys(examples).length > 0) hint.propertyExamples = examples;
  }
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = schema[keyword];
    const discriminator = Array.isArray(branches) && branches.every(isSchemaObject) ? discriminatorOf(branches, root) : undefined;
    if (discriminator) {
      hint.discriminator = discriminator;
      break;
    }
  }
  return hint;
}

/** Spellings a model plausibly means: case and surrounding space, mapped to the real value. */
function nearMissesOf(values: readonly JsonValue[]): Record<string, JsonValue> {
  const byKey = new Map<string, JsonValue | typeof AMBIGUOUS>();
  for (const value of values) {
    if (typeof value !== "string") continue;
    const key = normaliseNearMiss(value);
    byKey.set(key, byKey.has(key) ? AMBIGUOUS : value);
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of byKey) if (value !== AMBIGUOUS) out[key] = value;
  return out;
}

const AMBIGUOUS = Symbol("ambiguous");


// The example an error message offers: the schema's own examples, default or first allowed
// value, else one derived from the format or the bounds. A documented example that does not fit
// the schema (real specs have them) is passed over: a hint must never teach a wrong value.
function exampleOf(schema: Schema, values: readonly JsonValue[] | undefined): JsonValue | undefined {
  const documented: unknown[] = [
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...("example" in schema ? [schema.example] : []),
    ...("default" in schema ? [schema.default] : []),
    ...(values ?? []),
  ];
  const fitting = documented.find((value) => fits(value, schema));
  if (fitting !== undefined) return fitting as JsonValue;
  if (typeof schema.format === "string" && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
  const type = typeof schema.type === "string" ? schema.type : undefined;
  if (type === "integer" || type === "number") {
    const low = typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : undefined;
    const high = typeof schema.maximum === "number" ? schema.maximum : undefined;
    const value = low ?? (high !== undefined && high < 1 ? high : 1);
    return type === "integer" ? Math.ceil(value) : value;
  }
  if (type === "boolean") return true;
  return undefined;
}

/** A cheap check of the keywords an example most often gets wrong: type, allowed values, format, bounds. */
function fits(value: unknown, schema: Schema): boolean {
  if (value === undefined) return false;
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
  if (types && !types.some((type) => hasType(value, type))) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) return false;
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (typeof value === "string") {
    const check = typeof schema.format === "string" ? formats[schema.format] : undefined;
    if (check && !check(value)) return false;
    if (typeof schema.minLength === "number" && [...value].length < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) return false;
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) return false;
    if (typeof schema.maximum === "number" && value > schema.maximum) return false;
  }
  return true;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, " ");
  return single.length <= MAX_DESCRIPTION ? single : `${single.slice(0, MAX_DESCRIPTION - 1)}…`;
}
