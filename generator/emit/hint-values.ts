// Values an error hint offers the model, read from the schema at build time (error-hints.ts):
// the one value a property may take, and the spellings of a listed value a model plausibly means.
import type { JsonValue } from "../../templates/runtime/contract/tool-spec.ts";
import { normaliseNearMiss } from "../../templates/runtime/explain/near-miss.ts";
import type { Schema } from "../schema-walk.ts";
import { readings } from "./union-branches.ts";

/** The one value a property may take (`const`, or an `enum` of one), read through its `$ref` chain. */
export function onlyValue(property: Schema, root: unknown): JsonValue | undefined {
  for (const view of readings(property, root)) {
    if ("const" in view) return view.const as JsonValue;
    if (Array.isArray(view.enum)) return view.enum.length === 1 ? (view.enum[0] as JsonValue) : undefined;
  }
  return undefined;
}

/** Spellings a model plausibly means: case and surrounding space, mapped to the real value. */
export function nearMissesOf(values: readonly JsonValue[]): Record<string, JsonValue> {
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
