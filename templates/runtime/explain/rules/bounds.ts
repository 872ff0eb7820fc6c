// Rules about size and form: numeric bounds, lengths, item counts, formats, and any keyword
// without a module of its own (ajv's own message, which may name the value, then an example).
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError } from "../../contract/tool-spec.ts";
import { FORMAT_EXAMPLES } from "../format-examples.ts";
import { reformatted } from "../format-repair.ts";
import { fixed, type Location } from "../location.ts";
import { exampleOf, HiddenValue, received, sendExample, shorten, shownAt } from "../text.ts";

export function explainBound(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const p = error.params;
  const got = received(shownAt(document, path));
  return { path, rule: error.keyword, message: `${got}; ${fixed(location, "", () => `must be ${String(p["comparison"])} ${String(p["limit"])}`)}` };
}

export function explainLength(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const bound = fixed(
    location,
    "",
    () => `must be ${error.keyword === "minLength" ? "at least" : "at most"} ${String(error.params["limit"])} characters long${sendExample(location.hint)}`,
  );
  return { path, rule: error.keyword, message: `${received(shownAt(document, path))}; ${bound}` };
}

export function explainItems(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const value = shownAt(document, path);
  const bound = fixed(location, "", () => `must have ${error.keyword === "minItems" ? "at least" : "at most"} ${String(error.params["limit"])}`);
  return { path, rule: error.keyword, message: `got ${Array.isArray(value) ? value.length : 0} items; ${bound}` };
}

/** Said of a hidden text of 32 hex digits where a uuid goes: the same text, dashed 8-4-4-4-12. */
export const UUID_DASHES = "the text is a uuid without its dashes: send the same text with a dash after its 8th, 12th, 16th and 20th characters";

export function explainFormat(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const expected = fixed(location, "", () => {
    const format = String(error.params["format"]);
    const example = exampleOf(location.hint) ?? FORMAT_EXAMPLES[format];
    return `expected a ${format} string${example !== undefined ? ` such as ${shorten(example, 60)}` : ""}`;
  });
  const value = shownAt(document, path);
  const meant = typeof value === "string" ? reformatted(String(error.params["format"]), value) : undefined;
  // A secret-named uuid without its dashes: where the dashes go is the format's, not the text's.
  const dashes = value instanceof HiddenValue && value.undashedUuid && error.params["format"] === "uuid" ? `; ${UUID_DASHES}` : "";
  return {
    path,
    rule: "format",
    message: `${received(value)}; ${expected}${meant === undefined ? dashes : `; it reads as ${JSON.stringify(meant)}: send ${JSON.stringify(meant)}`}`,
  };
}

export function explainOther(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  // ajv's own message may name the value (uniqueItems names the duplicate items): not fixed.
  return {
    path,
    rule: error.keyword,
    message: `${received(shownAt(document, path))}; ${error.message ?? `violates "${error.keyword}"`}${fixed(location, "example", () => sendExample(location.hint))}`,
  };
}
