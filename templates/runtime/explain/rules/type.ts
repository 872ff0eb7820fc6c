// A value of the wrong JSON type: the number a text spells (`"#1234"`, `"20 lines"`, `"five"`),
// "omit it" for a null the field does not need, else the types to send and a documented example.
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError, SchemaHint } from "../../contract/tool-spec.ts";
import { fixed, rememberedMessage, rememberMessage, type Location } from "../location.ts";
import { suggestNumber } from "../number-advice.ts";
import { literalFormAdvice } from "./literal-forms.ts";
import { optionalAt } from "../optional.ts";
import { HiddenValue, received, sendExample, shownAt, typeOf } from "../text.ts";
import { typeListOf } from "../type-list.ts";

export function explainType(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const value = shownAt(document, path);
  const optional = optionalAt(location.hint, path);
  if (typeof value !== "string") return { path, rule: "type", message: typeMessage(location, typeListOf(error.params["type"]).text, value, optional) };
  // A text's message follows from the location (its expected types are the schema's), the text
  // and whether the field is optional there: said before, it is looked up.
  const key = optional ? `?${value}` : `!${value}`;
  let message = rememberedMessage(location, key);
  if (message === undefined) rememberMessage(location, key, (message = typeMessage(location, typeListOf(error.params["type"]).text, value, optional)));
  return { path, rule: "type", message };
}

/** The message for a value of the wrong type at `location`. */
function typeMessage(location: Location, expected: string, value: unknown, optional: boolean): string {
  // `expected` is ajv's comma-separated list of JSON type names, none of which contains another.
  const wanted = fixed(location, "wanted", () => expected.split(",").join(" or "));
  return `expected ${wanted}, ${received(value)}; ${advice(location, expected, value, optional)}`;
}

function advice(location: Location, expected: string, value: unknown, optional: boolean): string {
  if (value === null && optional) return "this field is optional: omit it rather than sending null";
  const reading = valueReading(location, expected, value, optional);
  if (reading !== undefined) return reading;
  if ((expected.includes("number") || expected.includes("integer")) && typeof value === "string")
    return fixed(location, "number", () => `send a JSON number without quotes${sendExample(location.hint)}`);
  if (expected.includes("boolean") && typeof value === "string") return "send a JSON boolean (true or false), without quotes";
  const shaped = shapeReading(location.hint, expected, value);
  if (shaped !== undefined) return shaped;
  const hint = location.hint;
  return fixed(location, "", () => `send ${expected.includes(",") ? "one of these types" : "it as"} ${expected.split(",").join(" or ")}${sendExample(hint)}`);
}

/**
 * The advice that reads the value meant off the value sent, against the JSON types `expected`
 * (ajv's comma-separated list): Python's words, a boolean or a structure written as text, a list
 * of one, a number carried in a text (`"+8"`, `"12 kg"`); undefined when the value carries none.
 * The union rule gives it too, for a value of a type no branch takes.
 */
export function valueReading(location: Location, expected: string, value: unknown, optional: boolean): string | undefined {
  const literal = literalFormAdvice(expected, value, location.hint, optional);
  if (literal !== undefined) return literal;
  const number = expected.includes("number");
  if (!(number || expected.includes("integer")) || typeof value !== "string") return undefined;
  const suggestion = suggestNumber(value);
  if (suggestion === undefined) return undefined;
  if (!inRange(Number(suggestion.value), location.hint.range)) {
    return `the number it spells, ${suggestion.value}, is outside what this field accepts (${rangeText(location.hint.range)}); send a JSON number within it, or ask the user`;
  }
  if (number || Number.isInteger(Number(suggestion.value)))
    return `send ${suggestion.value} as a JSON number — no quotes, ${suggestion.dropped}${suggestion.caution}`;
  return "send a whole JSON number, without quotes";
}

/**
 * A text where a wrapper of one text is wanted, or a single value where a list of such values is:
 * the wrapper filled in, or the value in brackets. The union rule gives it too, for a nullable
 * union (`anyOf: [{type: array}, {type: null}]`) sent a value of a type no branch takes.
 */
export function shapeReading(hint: SchemaHint, expected: string, value: unknown): string | undefined {
  const wrapped = typeof value === "string" ? wrappedText(hint, expected, value) : undefined;
  if (wrapped !== undefined) return wrapped;
  const itemType = hint.itemType;
  // `array,null`: a nullable list takes the single value in brackets as well.
  if (nonNull(expected) !== "array" || itemType === undefined || !(typeOf(value) === itemType || (itemType === "number" && typeof value === "number")))
    return undefined;
  // A secret is never quoted back, not even in brackets: the model has its own value to wrap.
  if (value instanceof HiddenValue) return `send a JSON array: a single value goes in brackets, so send the same ${itemType} inside [ and ]`;
  return `send a JSON array: a single value goes in brackets, send [${JSON.stringify(value)}]`;
}

/** ajv's list of expected types without `null`: what a nullable location wants when a value is sent. */
function nonNull(expected: string): string {
  return typeListOf(expected).nonNull;
}

type Range = NonNullable<SchemaHint["range"]>;

function inRange(n: number, range: Range | undefined): boolean {
  if (range === undefined) return true;
  if (range.minimum !== undefined && n < range.minimum) return false;
  if (range.maximum !== undefined && n > range.maximum) return false;
  if (range.exclusiveMinimum !== undefined && n <= range.exclusiveMinimum) return false;
  if (range.exclusiveMaximum !== undefined && n >= range.exclusiveMaximum) return false;
  if (range.multipleOf !== undefined && !Number.isInteger(n / range.multipleOf)) return false;
  return true;
}

function rangeText(range: Range | undefined): string {
  const parts: string[] = [];
  if (range?.minimum !== undefined) parts.push(`>= ${range.minimum}`);
  if (range?.exclusiveMinimum !== undefined) parts.push(`> ${range.exclusiveMinimum}`);
  if (range?.maximum !== undefined) parts.push(`<= ${range.maximum}`);
  if (range?.exclusiveMaximum !== undefined) parts.push(`< ${range.exclusiveMaximum}`);
  if (range?.multipleOf !== undefined) parts.push(`a multiple of ${range.multipleOf}`);
  return parts.join(", ");
}

/** Longest text offered inside its wrapper: beyond it the message would mostly repeat the call. */
const MAX_WRAPPED = 500;

/** A text where an object wrapping one text (or a list of them) is wanted: the wrapper, filled in. */
function wrappedText(hint: SchemaHint, expected: string, value: string): string | undefined {
  const wrapper = hint.textWrapper;
  // `object,null`: a nullable wrapper takes the text wrapped as well.
  if (wrapper === undefined || nonNull(expected) !== (wrapper.list ? "array" : "object")) return undefined;
  // A text its field would refuse is not what the model meant to wrap (lengths as ajv counts them).
  const length = [...value].length;
  if ((wrapper.minLength !== undefined && length < wrapper.minLength) || (wrapper.maxLength !== undefined && length > wrapper.maxLength)) return undefined;
  const filled = structuredClone(wrapper.template) as Record<string, unknown>;
  let node = filled;
  for (const name of wrapper.at.slice(0, -1)) node = node[name] as Record<string, unknown>;
  node[wrapper.at[wrapper.at.length - 1] as string] = value;
  const shape = wrapper.list ? [filled] : filled;
  const where = wrapper.at
    .toReversed()
    .map((name) => JSON.stringify(name))
    .join(" in ");
  if (value.length > MAX_WRAPPED) return `the text goes in ${where}: send it as ${wrapper.list ? "a list of one such object" : "such an object"}`;
  return `the text goes in ${where}: send ${JSON.stringify(shape)}`;
}
