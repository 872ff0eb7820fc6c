// Ajv for JSON Schema 2020-12, minus the bookkeeping that only `unevaluated*` and `$dynamicRef`
// need. ajv's own 2020-12 class always tracks which properties and items each subschema
// evaluated and passes dynamic scopes along: every validator then reads and resets that state
// on every call, and `anyOf` must run all of its branches (their evaluated properties are merged)
// instead of stopping at the first that passes. A schema that uses none of those keywords gets
// the same verdicts and errors without it; GitHub's rule unions validate ~3x faster (see #6).
import type { Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { someEntry } from "../schema-walk.ts";
import { disableDynamicTracking } from "./private-state.ts";

/** Keywords whose meaning depends on what other subschemas evaluated, or on the dynamic scope. */
const DYNAMIC_KEYWORDS: ReadonlySet<string> = new Set([
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
]);

/**
 * Whether `schema` may use a keyword that needs ajv's full 2020-12 machinery. Any object key
 * counts, data included (an `enum` value, a property name): a false alarm only costs speed.
 */
export function needsDynamicScope(schema: unknown): boolean {
  return someEntry(schema, (key) => DYNAMIC_KEYWORDS.has(key));
}

/** ajv's 2020-12 dialect without `unevaluated` tracking or dynamic scopes; no meta-schemas. */
export class Ajv2020Static extends Ajv2020 {
  constructor(options: Options = {}) {
    super({ ...options, meta: false });
    // Ajv2020 forces both options on. ajv reads them only while compiling (the vocabularies are
    // the same either way), so setting them back here, before any compile, takes effect.
    disableDynamicTracking(this.opts);
  }
}
