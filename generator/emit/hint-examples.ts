// The one example an error message may offer for a schema location: a documented one that fits
// the schema, else the format's canonical one; never a value made up from the type or bounds.
import type { JsonValue } from "../../templates/runtime/contract/tool-spec.ts";
import { FORMAT_EXAMPLES } from "../../templates/runtime/explain/format-examples.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import type { Schema } from "../schema-walk.ts";

// The example an error message offers: the schema's own examples, default or first allowed
// value, else one derived from the format or the bounds. A documented example that does not fit
// the schema (real specs have them) is passed over: a hint must never teach a wrong value.
export function exampleOf(schema: Schema, values: readonly JsonValue[] | undefined): JsonValue | undefined {
  const documented: unknown[] = [
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...("example" in schema ? [schema.example] : []),
    ...("default" in schema ? [schema.default] : []),
    ...(values ?? []),
  ].map(unquoted);
  const fitting = documented.find((value) => fits(value, schema));
  if (fitting !== undefined) return fitting as JsonValue;
  if (typeof schema.format === "string" && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
  // No value is made up from the type or the bounds: `1` fits an issue number's schema and names
  // the wrong issue. A message without an example says what kind of value to send instead.
  return undefined;
}

/** A documented string example written as JSON text of a string (GitHub's `"\"0\""`), read as the string it spells. */
function unquoted(value: unknown): unknown {
  if (typeof value !== "string" || value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  try {
    const inner: unknown = JSON.parse(value);
    return typeof inner === "string" ? inner : value;
  } catch {
    return value;
  }
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
    if (typeof check === "function" && !check(value)) return false;
    if (typeof schema.minLength === "number" && [...value].length < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) return false;
    if (typeof schema.pattern === "string" && !matches(schema.pattern, value)) return false;
  }
  if (typeof value === "number") {
    const check = typeof schema.format === "string" ? formats[schema.format] : undefined;
    if (check !== undefined && typeof check !== "function" && !check.validate(value)) return false;
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

/**
 * Whether `value` matches `pattern`, on the validator's own linear-time engine: a vendor's
 * pattern that backtracks exponentially in V8 (beezup.com's `([\/\w \.-]*)*` against its own
 * long example URL) must not hang generation here. A pattern that engine cannot read rejects
 * nothing here (the validator decides, and refuses it).
 */
function matches(pattern: string, value: string): boolean {
  try {
    return linearRegExp(pattern, "u").test(value);
  } catch {
    return true;
  }
}
