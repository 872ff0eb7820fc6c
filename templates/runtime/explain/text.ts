// The small pieces every message is written from: a received value shortened and quoted, JSON
// type names, lists of allowed values, and the one example a location may offer.
import type { JsonValue, SchemaHint } from "../contract/tool-spec.ts";
import { escapeToken } from "../json/json-pointer.ts";
import { FORMAT_EXAMPLES } from "./format-examples.ts";

const SHOWN_CHARS = 40;
/** Allowed values listed in full up to this many. */
export const LISTED_VALUES = 12;

/** JSON text of `value`, cut to about `max` characters: received values are never echoed raw. */
export function shorten(value: unknown, max: number = SHOWN_CHARS): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function childPath(parent: string, key: unknown): string {
  return `${parent}/${escapeToken(String(key))}`;
}

/**
 * A secret value (a secret-named key, a `writeOnly` property, a header or cookie parameter) as
 * the explainer sees it: its JSON type, never its text (call/attempt.ts puts it in place).
 */
export class HiddenValue {
  readonly type: string;
  constructor(type: string) {
    this.type = type;
  }
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

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
