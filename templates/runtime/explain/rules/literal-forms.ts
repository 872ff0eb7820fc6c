// A value of the wrong type whose intended value the sent value itself determines: Python's
// `None` written for a field that is not text, `"True"` or `"false"` for a boolean, a list of one where one value is wanted, an
// object or a list sent as JSON text of itself. Each is offered only when the reading is the
// only one (`"None"` is never read so for a field that takes text), and stays a suggestion:
// the guard still refuses the call.
import type { SchemaHint } from "../../contract/tool-spec.ts";
import { formats } from "../../validate/formats.ts";
import { HiddenValue, NO_VALUE, typeOf } from "../text.ts";
import { typeListOf } from "../type-list.ts";

const BOOLEANS: readonly boolean[] = [true, false];
const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["false", false],
]);

/** Longest JSON text offered back as the value it spells; longer ones get the advice without the value. */
const MAX_OFFERED = 400;

/**
 * Advice for `value` against the JSON types `expected` (ajv's comma-separated list), or undefined
 * when none of these forms applies.
 */
export function literalFormAdvice(expected: string, value: unknown, hint: SchemaHint, optional: boolean = hint.optional === true): string | undefined {
  const types = typeListOf(expected).types;
  if (typeof value === "string" && !types.includes("string")) {
    if (NO_VALUE.has(value.trim())) {
      // Optional and nullable: both fixes are right, and leaving the field out is the plainer one.
      if (types.includes("null"))
        return `${JSON.stringify(value)} is not JSON's empty value: send null${optional ? ", or as this field is optional, omit it" : ""}`;
      if (optional) return `${JSON.stringify(value)} is not a value in JSON; this field is optional: omit it`;
      return `${JSON.stringify(value)} is not a value in JSON and this field is required; if you do not know its value, ask the user instead of guessing`;
    }
    // `"True"`, `"false"`: a boolean written as text, Python's way or quoted; the word is the value.
    const word = value.trim().toLowerCase();
    if (types.includes("boolean") && (word === "true" || word === "false"))
      return `${JSON.stringify(value)} is text, not a JSON boolean: send ${word}, without quotes`;
    const parsed = jsonText(value);
    if (parsed !== undefined && parsed !== null && typeof parsed === "object" && types.includes(typeOf(parsed))) {
      const text = JSON.stringify(parsed);
      return text.length <= MAX_OFFERED
        ? `this is JSON text of ${typeOf(parsed) === "array" ? "a list" : "an object"}; send the value itself, not a string: send ${text}`
        : "this is JSON text; send the value itself, not a string of it";
    }
  }
  if (Array.isArray(value) && value.length === 1 && !types.includes("array")) {
    const only: unknown = value[0];
    const kind = typeOf(only);
    if (types.includes(kind) || (kind === "integer" && types.includes("number"))) {
      const text = JSON.stringify(only);
      // The element is offered only where the location's own rules (its allowed values, its
      // bounds) accept it; otherwise the model hears what to change, not a value to send.
      const fits = text.length <= MAX_OFFERED && allowedHere(only, hint);
      return fits ? `one value goes here, not a list: send ${text}` : "one value goes here, not a list: send its element alone, as this field's rules allow";
    }
  }
  // A secret field's text that is a word for no value (see HiddenValue.noValue): read as above, never quoted.
  if (value instanceof HiddenValue && value.noValue && !types.includes("string")) {
    const said = "the text is a word for no value (as Python's None)";
    if (types.includes("null")) return `${said}, not JSON's empty value: send null${optional ? ", or as this field is optional, omit it" : ""}`;
    if (optional) return `${said}, not a value in JSON; this field is optional: omit it`;
    return `${said}, not a value in JSON, and this field is required; if you do not know its value, ask the user instead of guessing`;
  }
  // A secret-named boolean's text `"True"`/`"false"`: both values of a boolean are public, so the
  // one the text spells is offered; the text itself is not quoted.
  if (value instanceof HiddenValue && types.includes("boolean") && !types.includes("string")) {
    const meant = value.schemaValueFor(BOOLEANS, (text) => BOOLEAN_WORDS.get(text.trim().toLowerCase()));
    if (meant !== undefined) return `the text is a boolean written as text, not a JSON boolean: send ${meant}, without quotes`;
  }
  // A secret sent as JSON text of an object or list: its kind is known, never its content.
  if (value instanceof HiddenValue && value.spells !== undefined && !types.includes("string") && types.includes(value.spells))
    return `this is JSON text of ${value.spells === "array" ? "a list" : "an object"}; send the value itself, not a string of it`;
  // A secret's list of one: its item is never quoted back, so the message names it instead; the
  // model (and a literal repairer) has the list it sent.
  if (value instanceof HiddenValue && value.type === "array" && !types.includes("array")) {
    const only = value.member("0");
    const kind = typeOf(only);
    if (only !== undefined && value.member("1") === undefined && (types.includes(kind) || (kind === "integer" && types.includes("number"))))
      return "one value goes here, not a list: send its only item alone, without the brackets";
  }
  return undefined;
}

function allowedHere(value: unknown, hint: SchemaHint): boolean {
  if (hint.allowed !== undefined && !hint.allowed.some((allowed) => allowed === value)) return false;
  const format = hint.format === undefined ? undefined : formats[hint.format];
  if (typeof value === "string" && hint.format !== undefined && (typeof format !== "function" || !format(value))) return false;
  const range = hint.range;
  if (typeof value === "number" && range !== undefined) {
    if (range.minimum !== undefined && value < range.minimum) return false;
    if (range.maximum !== undefined && value > range.maximum) return false;
    if (range.exclusiveMinimum !== undefined && value <= range.exclusiveMinimum) return false;
    if (range.exclusiveMaximum !== undefined && value >= range.exclusiveMaximum) return false;
    if (range.multipleOf !== undefined && !Number.isInteger(value / range.multipleOf)) return false;
  }
  return true;
}

function jsonText(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}
