// The values of ajv's schema constants (`const schemaN = <JSON>;`, assumption 10), parsed once
// per validator: pruning (schema-constants.ts) and the constants' locations (schema-locations.ts)
// both read every constant's value, and on a large validator parsing the root schema's constant
// twice was a good part of each pass. Neither changes a value it reads.

/** What parsing a constant's text gave: its value, or NOT_JSON when the text is no JSON. */
export const NOT_JSON: unique symbol = Symbol("not JSON");

/** The parsed texts of one validator's constants, for the passes over that validator only. */
export type ConstantValues = Map<string, unknown>;

/** JSON.parse(text), or NOT_JSON; from `values` when the text was parsed before, else remembered there. */
export function constantValue(text: string, values: ConstantValues | undefined): unknown {
  if (values?.has(text)) return values.get(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = NOT_JSON;
  }
  values?.set(text, value);
  return value;
}
