// Rules about size and form: numeric bounds, lengths, item counts, formats, and any keyword
// without a module of its own (ajv's own message, which may name the value, then an example).
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError } from "../../contract/tool-spec.ts";
import { FORMAT_EXAMPLES } from "../format-examples.ts";
import { reformatted } from "../format-repair.ts";
import { fixed, type Location } from "../location.ts";
import { valueAt } from "../../json/json-pointer.ts";
import { childPath, exampleOf, HiddenValue, isRecord, received, sendExample, shorten, shownAt } from "../text.ts";

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

/**
 * Too few fields (`minProperties`), where the object sent holds none of the names its holder has
 * beside it that it declares (RunPod's `body: {}` beside `name`): those fields are its own, sent
 * one level too high. One such field is said at its place, as a missing required field's move is.
 */
export function explainFewProperties(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  const names = location.hint.sentAbove;
  const object = valueAt(document, path);
  const parentPath = path.slice(0, path.lastIndexOf("/"));
  const parent = path === "" || names === undefined || !isRecord(object) ? undefined : valueAt(document, parentPath);
  const held = isRecord(parent) && isRecord(object) ? (names ?? []).filter((name) => Object.hasOwn(parent, name) && !Object.hasOwn(object, name)) : [];
  if (held.length === 0) return explainOther(error, location, document);
  const bound = `${received(shownAt(document, path))}; ${error.message ?? "has too few properties"}`;
  if (held.length === 1) {
    const name = held[0] as string;
    return {
      path: childPath(path, name),
      rule: error.keyword,
      message: `${bound}; the call holds ${JSON.stringify(name)} beside it, at ${childPath(parentPath, name)}: move ${childPath(parentPath, name)} here`,
    };
  }
  const steps = held.map((name) => `move ${childPath(parentPath, name)} to ${childPath(path, name)}`);
  return { path, rule: error.keyword, message: `${bound}; the call sends its fields beside it: ${steps.join("; ")}` };
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
