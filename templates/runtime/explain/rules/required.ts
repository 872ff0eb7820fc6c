// A missing required field. What to send when the schema allows one value only; where the call
// already holds the value under another name (`branch` for `head`, a word of head's description),
// to move it; otherwise to ask the user: a missing fact is never guessed.
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError, SchemaHint } from "../../contract/tool-spec.ts";
import { escapeToken, valueAt } from "../../json/json-pointer.ts";
import { noteMove } from "../grouped-moves.ts";
import { fixed, type Location } from "../location.ts";
import { normaliseNearMiss } from "../near-miss.ts";
import { closestName } from "../spelling.ts";
import { childPath, clip, isRecord, shorten } from "../text.ts";

export function explainRequired(error: AjvError, location: Location, document: unknown): ArgumentError | ArgumentError[] {
  const hint = location.hint;
  const name = String(error.params["missingProperty"]);
  const path = childPath(error.instancePath, name);
  const only = hint.propertyValues?.[name];
  if (only !== undefined) {
    return {
      path,
      rule: "required",
      message: fixed(location, `only:${name}`, () => `missing required field ${JSON.stringify(name)}; send ${shorten(only, 80)}`),
    };
  }
  const object = valueAt(document, error.instancePath);
  const held = heldUnderAnotherName(hint, name, object);
  const described = fixed(location, name, () => {
    const description = hint.propertyDescriptions?.[name];
    return `missing required field ${JSON.stringify(name)}${description ? ` (${clip(description, 120)})` : ""}`;
  });
  const placed = held === undefined ? misplacedAt(hint, name, error.instancePath, document) : undefined;
  if (placed !== undefined) {
    return { path, rule: "required", message: `${described}; the call holds it at ${placed}, where it does not belong: move ${placed} here` };
  }
  if (held !== undefined) {
    return {
      path,
      rule: "required",
      message: `${described}; the call holds it as ${JSON.stringify(held)}, a name this object does not accept: move ${childPath(error.instancePath, held)} here`,
    };
  }
  const misspelt = misspeltAs(hint, name, object);
  if (misspelt !== undefined) {
    return {
      path,
      rule: "required",
      message: `${described}; the call holds it as ${JSON.stringify(misspelt)}, a name this object does not declare: move ${childPath(error.instancePath, misspelt)} here`,
    };
  }
  const inside = fieldsBelongingIn(hint, name, object);
  if (inside !== undefined) {
    // An object that names what it accepts refuses each of those fields with its own move; an
    // open one takes them silently, so the moves are said here.
    const listed = clip(inside.map((key) => JSON.stringify(key)).join(", "), 120);
    const missing: ArgumentError = {
      path,
      rule: "required",
      message: `${described}; the call sends its fields at this level (${listed}): move them into it, as their errors say`,
    };
    // An open one takes them silently, so each is said here, at its own place (RunPod's rename
    // sent as `{id, name}`): past the error cap the moves are one error (grouped-moves.ts).
    if (hint.properties === undefined) return [missing, ...inside.map((key) => fieldMove(error.instancePath, name, key, hint))];
    return missing;
  }
  return {
    path,
    rule: "required",
    message: fixed(location, `ask:${name}`, () => {
      const example = hint.propertyExamples?.[name];
      return `${described + (example !== undefined ? `; for example ${shorten(example, 60)}` : "")}; if you do not know its value, ask the user instead of guessing`;
    }),
  };
}

/** The error at a field the open object at `holder` takes silently, though it belongs inside the missing `name`. */
function fieldMove(holder: string, name: string, key: string, hint: SchemaHint): ArgumentError {
  const at = childPath(holder, key);
  const target = `${holder}/${(hint.moves as Readonly<Record<string, string>>)[key]}`;
  const message = `${JSON.stringify(key)} belongs inside ${JSON.stringify(name)}, which the call leaves out: move it to ${target}`;
  return noteMove({ path: at, rule: "required", message }, holder, target, true);
}

/** The one unknown key of `object` that names `name` by a word of its description, and no other missing field. */
function heldUnderAnotherName(hint: SchemaHint, name: string, object: unknown): string | undefined {
  const aliases = hint.aliases;
  if (aliases === undefined || !Object.hasOwn(aliases, name) || !isRecord(object)) return undefined;
  const accepted = hint.properties;
  let found: string | undefined;
  for (const key of Object.keys(object)) {
    // A name the object declares (an open one lists them in `declared`) is a field of its own, not this one misnamed.
    if (accepted?.includes(key) || hint.declared?.includes(key) || Object.hasOwn(aliases, key)) continue;
    // A field that belongs inside the missing one (a body field sent at the top level) is not its value.
    if (belongsInside(hint, key, name)) continue;
    const word = normaliseNearMiss(key);
    if (!(aliases[name] as readonly string[]).includes(word)) continue;
    // The same word may describe another missing field (`branch`: head and base): then it names neither.
    for (const [other, words] of Object.entries(aliases)) {
      if (other !== name && !Object.hasOwn(object, other) && words.includes(word)) return undefined;
    }
    if (found !== undefined) return undefined;
    found = key;
  }
  return found;
}

/**
 * The one key of an open object (one that accepts any name, so the misspelling raised no error
 * of its own) that misspells the missing `name` and is no name the object declares.
 */
function misspeltAs(hint: SchemaHint, name: string, object: unknown): string | undefined {
  const declared = hint.declared;
  if (declared === undefined || !isRecord(object)) return undefined;
  let found: string | undefined;
  for (const key of Object.keys(object)) {
    // Nor is a field of it (Microsoft 365's `bold` beside the missing `body`, two edits away).
    if (declared.includes(key) || belongsInside(hint, key, name) || closestName(key, [name]) !== name) continue;
    if (found !== undefined) return undefined;
    found = key;
  }
  return found;
}

/** Whether the move table places `key` inside the field `name`. */
function belongsInside(hint: SchemaHint, key: string, name: string): boolean {
  return hint.moves !== undefined && Object.hasOwn(hint.moves, key) && (hint.moves[key] as string).startsWith(`${escapeToken(name)}/`);
}

/** The keys of `object` that the move table places inside `name` (a body's fields sent at the top level); undefined when none. */
function fieldsBelongingIn(hint: SchemaHint, name: string, object: unknown): readonly string[] | undefined {
  const moves = hint.moves;
  if (moves === undefined || !isRecord(object)) return undefined;
  const into = `${escapeToken(name)}/`;
  // Own keys only: a field named `toString` must not read Object.prototype's.
  const keys = Object.keys(object).filter((key) => Object.hasOwn(moves, key) && (moves[key] as string).startsWith(into));
  return keys.length === 0 ? undefined : keys;
}

/** The one place in a nested object where the call holds `name`, as a JSON Pointer. */
function misplacedAt(hint: SchemaHint, name: string, path: string, document: unknown): string | undefined {
  const places = hint.misplaced?.[name];
  if (places === undefined) return undefined;
  let found: string | undefined;
  for (const place of places) {
    // `../name`: the field sent beside this object, in the object that holds it.
    const pointer = place.startsWith("../") ? (path === "" ? undefined : `${path.slice(0, path.lastIndexOf("/"))}/${place.slice(3)}`) : `${path}/${place}`;
    if (pointer === undefined) continue;
    if (valueAt(document, pointer) === undefined) continue;
    if (found !== undefined) return undefined;
    found = pointer;
  }
  return found;
}
