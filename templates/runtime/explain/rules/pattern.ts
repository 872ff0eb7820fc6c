// A text its pattern refuses, where the field takes a number (or a boolean, an object, null)
// besides text: .NET's integers are `{"type": ["integer", "string"], "pattern": "^-?(?:0|[1-9]\\d*)$"}`,
// which the reader splits into an `anyOf` of an integer branch and a string branch. The text is no
// value of the field's text form, so it is read as the other types read a text: the number it
// spells (`"+10"`), Python's `None` on an optional field. The number is read only where the
// pattern takes its digits too (`"10"`): the text form is then that number written as text, and
// the text meant the number either way. A pattern of other texts (`^[0-9]+(px|em)$`) may be what
// the text was meant for (`"5 kg"` for `"5em"`), and keeps its rule alone, as does a text that
// reads as none of them.
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError, HintTable } from "../../contract/tool-spec.ts";
import { linearRegExp } from "../../validate/pattern.ts";
import { type Location, locate } from "../location.ts";
import { suggestNumber } from "../number-advice.ts";
import { optionalAt } from "../optional.ts";
import { HiddenValue, received, shownAt } from "../text.ts";
import { explainOther } from "./bounds.ts";
import { valueReading } from "./type.ts";

/** A union branch's location (`#/properties/size/anyOf/1`): the union's, and the combinator. */
const BRANCH = /^(.*)\/(anyOf|oneOf)\/\d+$/;

export function explainPattern(error: AjvError, location: Location, document: unknown, hints: HintTable): ArgumentError {
  const explained = explainOther(error, location, document);
  const value = shownAt(document, error.instancePath);
  if (typeof value !== "string" && !(value instanceof HiddenValue && value.type === "string")) return explained;
  const number = typeof value === "string" ? suggestNumber(value) : undefined;
  if (number !== undefined && !takes(error.params["pattern"], number.value)) return explained;
  const reading = otherReading(error, location, value, hints);
  // The reading takes the example's place: it names the value meant.
  return reading === undefined ? explained : { ...explained, message: `${received(value)}; ${error.message ?? "must match its pattern"}; ${reading}` };
}

/** What the text reads as under the field's types other than text, or undefined. */
function otherReading(error: AjvError, location: Location, value: unknown, hints: HintTable): string | undefined {
  const path = error.instancePath;
  const own = location.hint.types ?? [];
  // `type: ["integer", "string"]` kept as one schema: its own types say it.
  if (own.includes("string") && own.length > 1)
    return valueReading(location, own.filter((type) => type !== "string").join(","), value, optionalAt(location.hint, path));
  // The string branch of a union: the union's other branches say what else the field takes.
  const at = error.schemaPath.lastIndexOf("/");
  const branch = BRANCH.exec(at > 0 ? error.schemaPath.slice(0, at) : "");
  if (branch === null) return undefined;
  const [, unionPath, keyword] = branch as unknown as [string, string, string];
  const union = locate({ ...error, schemaPath: `${unionPath}/${keyword}` }, hints);
  const others = (union.hint.types ?? []).filter((type) => type !== "string");
  if (others.length === 0) return undefined;
  // A number's type (integer or number) and bounds are its branch's: the reading is read there.
  const numeric = union.hint.typeBranches?.integer ?? union.hint.typeBranches?.number;
  if (numeric === undefined) return valueReading(union, others.join(","), value, optionalAt(union.hint, path));
  const reader = locate({ ...error, schemaPath: `${unionPath}/${keyword}/${numeric}/type` }, hints);
  const types = [...others.filter((type) => type !== "number" && type !== "integer"), ...(reader.hint.types ?? ["number"])];
  return valueReading(reader, types.join(","), value, optionalAt(union.hint, path));
}

/** Compiled patterns by source, on the failure path only; bounded by the schema's patterns. */
const compiled = new Map<string, ReturnType<typeof linearRegExp> | undefined>();

/** Whether `pattern` (the one the text failed) takes `text`; false when it cannot be read. */
function takes(pattern: unknown, text: string): boolean {
  if (typeof pattern !== "string") return false;
  if (!compiled.has(pattern)) {
    try {
      compiled.set(pattern, linearRegExp(pattern, "u"));
    } catch {
      compiled.set(pattern, undefined);
    }
  }
  return compiled.get(pattern)?.test(text) ?? false;
}
