// The small pieces every message is written from: a received value shortened and quoted, JSON
// type names, lists of allowed values, and the one example a location may offer.
import type { JsonValue, SchemaHint } from "../contract/tool-spec.ts";
import { escapeToken, pointerTokens, valueAt } from "../json/json-pointer.ts";
import { FORMAT_EXAMPLES } from "./format-examples.ts";
import { isUndashedUuid } from "./format-repair.ts";
import { type StringLookup, stringSet } from "./string-lookup.ts";

const SHOWN_CHARS = 40;
/** Allowed values listed in full up to this many. */
export const LISTED_VALUES = 12;

/** JSON text of `value`, cut to about `max` characters: received values are never echoed raw. */
export function shorten(value: unknown, max: number = SHOWN_CHARS): string {
  const text = (typeof value === "string" ? quoted(value) : JSON.stringify(value)) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * `JSON.stringify` of a string, which for a text with nothing to escape (no quote, backslash,
 * control character or surrogate: nearly every value a model sends) is the text in quotes,
 * without the serialiser's own setup, which costs more than the copy for a short text.
 */
export function quoted(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function childPath(parent: string, key: unknown): string {
  return `${parent}/${escapeToken(String(key))}`;
}

/**
 * A secret value (a secret-named key, a `writeOnly` property, a header or cookie parameter) as
 * the explainer sees it: its JSON type, never its text (call/attempt.ts puts it in place). A
 * hidden list or object keeps its members, hidden in turn, so an error inside it (`/api_keys/0`)
 * still learns the type of what it is about.
 */

/** How a secret field's value is shown inside a value quoted back. */
const HIDDEN_TEXT = "(not shown: a secret field)";

export class HiddenValue {
  readonly type: string;
  /**
   * For a text that is JSON of an object or a list, that JSON type: the kind of value the text
   * holds, never its content, so "send the value itself, not a string of it" can still be said.
   */
  readonly spells: "object" | "array" | undefined;
  /**
   * For a text that is a word for no value (Python's `None`, `null`): a word, not a credential,
   * so that a secret-named flag (`regenerateToken`) still hears "omit it".
   */
  readonly noValue: boolean;
  readonly #members: ReadonlyMap<string, unknown> | undefined;
  /** A hidden text, read only through `schemaValueFor`: no getter, and a private field is neither serialised nor cloned. */
  readonly #text: string | undefined;
  /** `text`: a hidden string's own text, with what `hidden` read of it. */
  constructor(
    type: string,
    members?: ReadonlyMap<string, unknown>,
    text?: { readonly text: string; readonly spells: "object" | "array" | undefined; readonly noValue: boolean },
  ) {
    this.type = type;
    this.#members = members;
    this.spells = text?.spells;
    this.noValue = text?.noValue ?? false;
    this.#text = text?.text;
  }

  /**
   * Whether the hidden text is a uuid written without its dashes (format-repair.ts
   * `isUndashedUuid`), asked only where a uuid is wanted: that is a shape, not the content, so
   * "send the same text with a dash after ..." can still be said (Lithic's identifiers are named
   * `*_token`, so every one of them is hidden).
   */
  get undashedUuid(): boolean {
    return this.#text !== undefined && isUndashedUuid(this.#text);
  }

  /**
   * The schema's own value that `read` finds for the hidden text, when it is one of `values`,
   * the whole set the schema lists for the location (an enum's, a const's, a boolean's true and
   * false); else undefined. A field whose every value the schema lists has no secret value, so
   * naming the one the text meant (`did you mean "client_secret_post"?`) says only what the
   * schema says. The text itself never comes out: a reading outside `values` is dropped, so a
   * free-form secret (no listed set) is never read at all (docs/errors.md, "Secret-named fields").
   */
  schemaValueFor<T>(values: readonly T[] | undefined, read: (text: string) => unknown): T | undefined {
    if (this.#text === undefined || values === undefined || values.length === 0) return undefined;
    const found = read(this.#text);
    return values.find((value) => value === found);
  }

  /** The member at one pointer token, hidden; undefined when there is none. */
  member(token: string): unknown {
    return this.#members?.get(token);
  }

  /**
   * What a received object holding it shows (`got object {"api_token":"(not shown: a secret
   * field)",…`): serialised, HiddenValue's own `type`, `spells` and `noValue` read as a value the
   * model sent (`{"api_token":{"type":"string",…`).
   */
  toJSON(): string {
    return HIDDEN_TEXT;
  }

  /** A hidden object's fields, each member hidden in turn; empty for a hidden text, number or list. */
  fields(): readonly (readonly [string, unknown])[] {
    return this.type === "object" && this.#members !== undefined ? [...this.#members] : [];
  }
}

/**
 * A secret value as the explainer may see it: a null stays null (it says nothing of a secret, and
 * "omit it rather than sending null" needs to see it), anything else becomes a `HiddenValue`.
 */
export function hidden(value: unknown): unknown {
  if (value === null) return null;
  if (typeof value === "string") return new HiddenValue("string", undefined, { text: value, spells: jsonKind(value), noValue: NO_VALUE.has(value.trim()) });
  if (typeof value !== "object") return new HiddenValue(typeOf(value));
  const entries = Array.isArray(value) ? value.map((member, index) => [String(index), member] as const) : Object.entries(value);
  return new HiddenValue(typeOf(value), new Map(entries.map(([key, member]) => [key, hidden(member)])));
}

/**
 * Python's and other languages' words for "no value", as models write them into JSON. Asked of
 * every wrong-typed text, a fresh string each time: scanned, not hashed (string-lookup.ts).
 */
export const NO_VALUE: StringLookup<true> = stringSet(["None", "none", "NONE", "nil", "Nil", "undefined", "NULL", "Null"]);

/** "object" or "array" when `text` is JSON text of one; undefined otherwise (and for any other JSON). */
function jsonKind(text: string): "object" | "array" | undefined {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? "array" : parsed !== null && typeof parsed === "object" ? "object" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value at `pointer` in the document shown to the model: as `valueAt`, but it goes on into a
 * hidden list or object, so a value inside a secret is its `HiddenValue`, never `undefined`.
 */
export function shownAt(document: unknown, pointer: string): unknown {
  const value = valueAt(document, pointer);
  if (value !== undefined) return value;
  let node: unknown = document;
  for (const token of pointerTokens(pointer)) {
    if (node instanceof HiddenValue) node = node.member(token);
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

export function typeOf(value: unknown): string {
  if (value instanceof HiddenValue) return value.type;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** What the model sent, typed: `got string "eur"`; a null is just `got null`, never "null null". */
export function received(value: unknown): string {
  if (value instanceof HiddenValue) return `got ${value.type} (not shown: a secret field)`;
  if (value === null) return "got null";
  return `got ${typeOf(value)} ${shorten(value)}`;
}

export function listed(values: readonly unknown[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;
}

/** The documented example of a location, else its format's canonical one; never a made-up value. */
export function exampleOf(hint: SchemaHint): JsonValue | undefined {
  if (hint.example !== undefined) return hint.example;
  if (hint.format !== undefined) return FORMAT_EXAMPLES[hint.format];
  return undefined;
}

export function sendExample(hint: SchemaHint): string {
  const example = exampleOf(hint);
  return example === undefined ? "" : `; for example ${shorten(example, 60)}`;
}

/**
 * The fields of an object sent, to be compared with the names the schema declares: a plain
 * object's entries, or a hidden one's (a secret-named `credential` object), whose names are read
 * and whose members stay hidden; undefined for anything else. A hidden object passes `isRecord`
 * but holds its fields privately: read through `Object.keys` it would seem to hold none, or
 * HiddenValue's own `type` and `spells` (Skyvern's `credential` heard "add \"password\"" beside
 * its password).
 */
export function fieldEntries(value: unknown): readonly (readonly [string, unknown])[] | undefined {
  if (value instanceof HiddenValue) return value.type === "object" ? value.fields() : undefined;
  return isRecord(value) ? Object.entries(value) : undefined;
}

/** The field `name` of an object sent, plain or hidden (its member hidden in turn); undefined when it holds none. */
export function fieldOf(value: unknown, name: string): unknown {
  if (value instanceof HiddenValue) return value.member(name);
  return isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
