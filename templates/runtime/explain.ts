// Turns ajv's errors into errors written for the model: where (JSON Pointer), which rule, what
// was received (shortened, JSON-quoted) and what to send. Every hint that needs the schema was
// computed at build time into the hint table, so explaining never walks the schema.
import type { ArgumentError } from "./outcome.ts";
import type { AjvError, HintTable, JsonValue, SchemaHint } from "./tool-spec.ts";
import { compareTokens, escapeToken, pointerTokens, valueAt } from "./json-pointer.ts";
import { normaliseNearMiss } from "./near-miss.ts";
import { suggestNumber } from "./number-advice.ts";
import { FORMAT_EXAMPLES } from "./format-examples.ts";

const SHOWN_CHARS = 40;
const LISTED_VALUES = 12;

/** JSON text of `value`, cut to about `max` characters: received values are never echoed raw. */
export function shorten(value: unknown, max: number = SHOWN_CHARS): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function explainSchemaErrors(
  ajvErrors: readonly AjvError[],
  document: unknown,
  hints: HintTable,
  maxErrors: number,
): ArgumentError[] {
  // A million unknown keys are a million ajv errors; only the first few hundred can ever be
  // shown, so only those are explained and the rest are counted.
  const examined = ajvErrors.length > MAX_EXAMINED ? ajvErrors.slice(0, MAX_EXAMINED) : ajvErrors;
  const errors = collapseAlternatives(examined).map((error) => explainOne(error, document, hints));
  return finish(errors, maxErrors, ajvErrors.length - examined.length);
}

/** Most ajv errors explained for one attempt; beyond it they are only counted. */
const MAX_EXAMINED = 500;

/** Deduplicates, orders by path, and caps the list with a closing "and N more" entry. */
export function finish(errors: readonly ArgumentError[], maxErrors: number, unexamined = 0): ArgumentError[] {
  // Sort first (stable; each path split once, not on every comparison), then drop repeats:
  // equal errors compare equal, so they sit in one run of the sorted list and are found by
  // comparing within the run, without hashing every message (which cost more than explaining).
  const keyed = errors.map((error) => ({ error, tokens: pointerTokens(error.path) }));
  if (keyed.length > 1) keyed.sort(compareKeyed);
  const unique: ArgumentError[] = [];
  let run = 0;
  for (let i = 0; i < keyed.length; i++) {
    const { error } = keyed[i] as Keyed;
    if (i === 0 || compareKeyed(keyed[i - 1] as Keyed, keyed[i] as Keyed) !== 0) run = unique.length;
    else if (isRepeat(error, unique, run)) continue;
    unique.push(error);
  }
  if (unique.length <= maxErrors && unexamined === 0) return unique;
  const kept = unique.slice(0, Math.max(1, maxErrors - 1));
  const rest = unique.length - kept.length + unexamined;
  kept.push({
    path: "",
    rule: "more_errors",
    message: `and ${rest} more ${rest === 1 ? "error" : "errors"} not listed; check every field against the schema before resending`,
  });
  return kept;
}

interface Keyed {
  readonly error: ArgumentError;
  readonly tokens: readonly string[];
}

function compareKeyed(a: Keyed, b: Keyed): number {
  return compareTokens(a.tokens, b.tokens) || (a.error.rule < b.error.rule ? -1 : a.error.rule > b.error.rule ? 1 : 0);
}

/** Whether `unique[from..]` (one run of equal path and rule) already holds the same error. */
function isRepeat(error: ArgumentError, unique: readonly ArgumentError[], from: number): boolean {
  for (let i = from; i < unique.length; i++) {
    const other = unique[i] as ArgumentError;
    if (other.path === error.path && other.rule === error.rule && other.message === error.message) return true;
  }
  return false;
}

/**
 * A failed `anyOf`/`oneOf` makes ajv report every branch's errors, which reads as contradictory
 * demands. Keep the combinator's own error and drop everything reported inside its branches;
 * drop the bookkeeping `if` error whose `then`/`else` errors are reported anyway.
 */
function collapseAlternatives(errors: readonly AjvError[]): readonly AjvError[] {
  const branches: string[] = [];
  let bookkeeping = false;
  for (const error of errors) {
    if (error.keyword === "anyOf" || error.keyword === "oneOf") branches.push(`${error.schemaPath}/`);
    else if (error.keyword === "if") bookkeeping = true;
  }
  if (branches.length === 0 && !bookkeeping) return errors; // the usual case: nothing to drop
  return errors.filter(
    (error) => error.keyword !== "if" && !branches.some((prefix) => error.schemaPath.startsWith(prefix)),
  );
}

function hintFor(error: AjvError, hints: HintTable): SchemaHint {
  // ajv's schema paths are string constants in the validator, so a map keyed by them answers
  // without cutting and hashing a fresh string per error.
  let bySchemaPath = hintsBySchemaPath.get(hints);
  if (bySchemaPath === undefined) hintsBySchemaPath.set(hints, (bySchemaPath = new Map()));
  let hint = bySchemaPath.get(error.schemaPath);
  if (hint === undefined) {
    const at = error.schemaPath.lastIndexOf("/");
    hint = hints[at > 0 ? error.schemaPath.slice(0, at) : "#"] ?? NO_HINT;
    // Bounded by the validator's own schema paths (with ajv's keyword suffixes).
    bySchemaPath.set(error.schemaPath, hint);
  }
  return hint;
}

const hintsBySchemaPath = new WeakMap<HintTable, Map<string, SchemaHint>>();

/** The allowed property names in near-miss form, computed once per hint. */
function squashedProperties(hint: SchemaHint): readonly string[] {
  let squashed = squashedByHint.get(hint);
  if (squashed === undefined) squashedByHint.set(hint, (squashed = (hint.properties ?? []).map(squash)));
  return squashed;
}

const squashedByHint = new WeakMap<SchemaHint, readonly string[]>();

const NO_HINT: SchemaHint = Object.freeze({});

function childPath(parent: string, key: unknown): string {
  return `${parent}/${escapeToken(String(key))}`;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function received(value: unknown): string {
  return `got ${typeOf(value)} ${shorten(value)}`;
}

function exampleOf(hint: SchemaHint): JsonValue | undefined {
  if (hint.example !== undefined) return hint.example;
  if (hint.format !== undefined) return FORMAT_EXAMPLES[hint.format];
  return undefined;
}

function sendExample(hint: SchemaHint): string {
  const example = exampleOf(hint);
  return example === undefined ? "" : `; for example ${shorten(example, 60)}`;
}

function listed(values: readonly unknown[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;
}

function allowedOf(error: AjvError, hint: SchemaHint): readonly unknown[] | undefined {
  const fromParams = error.params["allowedValues"];
  const values = hint.allowed ?? (Array.isArray(fromParams) ? fromParams : undefined);
  return values && values.length <= LISTED_VALUES ? values : undefined;
}

function nearMiss(value: unknown, hint: SchemaHint): string {
  if (typeof value !== "string" || !hint.nearMisses) return "";
  const key = normaliseNearMiss(value);
  if (!Object.hasOwn(hint.nearMisses, key)) return "";
  return ` — did you mean ${JSON.stringify(hint.nearMisses[key])}?`;
}

function explainOne(error: AjvError, document: unknown, hints: HintTable): ArgumentError {
  const hint = hintFor(error, hints);
  const path = error.instancePath;
  const value = valueAt(document, path);
  const p = error.params;
  switch (error.keyword) {
    case "required": {
      const name = String(p["missingProperty"]);
      const description = hint.propertyDescriptions?.[name];
      const example = hint.propertyExamples?.[name];
      return {
        path: childPath(path, name),
        rule: "required",
        message:
          `missing required field ${JSON.stringify(name)}` +
          (description ? ` (${clip(description, 120)})` : "") +
          (example !== undefined ? `; for example ${shorten(example, 60)}` : "") +
          "; if you do not know its value, ask the user instead of guessing",
      };
    }
    case "additionalProperties": {
      const name = String(p["additionalProperty"]);
      const allowed = hint.properties ?? [];
      const close = allowed[squashedProperties(hint).indexOf(squash(name))];
      return {
        // A long name is the model's text, possibly instructions: only its shortened, quoted
        // form appears, so the path stops at the object that holds it.
        path: shorten(name) === JSON.stringify(name) ? childPath(path, name) : path,
        rule: "additionalProperties",
        message:
          `unknown field ${shorten(name)}` +
          (close ? `; did you mean ${JSON.stringify(close)}?` : "") +
          (allowed.length > 0 ? ` This object accepts only ${allowed.join(", ")}` : " Remove it"),
      };
    }
    case "type":
      return { path, rule: "type", message: typeMessage(String(p["type"]), value, hint) };
    case "enum": {
      const allowed = allowedOf(error, hint);
      return {
        path,
        rule: "enum",
        message:
          `${received(value)}; ` +
          (allowed ? `must be one of ${listed(allowed)}` : `must be one of the allowed values${sendExample(hint)}`) +
          nearMiss(value, hint),
      };
    }
    case "const":
      return { path, rule: "const", message: `${received(value)}; must be exactly ${shorten(p["allowedValue"], 60)}` };
    case "format": {
      const format = String(p["format"]);
      const example = exampleOf(hint) ?? FORMAT_EXAMPLES[format];
      return {
        path,
        rule: "format",
        message: `${received(value)}; expected a ${format} string` + (example !== undefined ? ` such as ${shorten(example, 60)}` : ""),
      };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return { path, rule: error.keyword, message: `${received(value)}; must be ${String(p["comparison"])} ${String(p["limit"])}` };
    case "minLength":
    case "maxLength":
      return {
        path,
        rule: error.keyword,
        message: `${received(value)}; must be ${error.keyword === "minLength" ? "at least" : "at most"} ${String(p["limit"])} characters long${sendExample(hint)}`,
      };
    case "minItems":
    case "maxItems":
      return {
        path,
        rule: error.keyword,
        message: `got ${Array.isArray(value) ? value.length : 0} items; must have ${error.keyword === "minItems" ? "at least" : "at most"} ${String(p["limit"])}`,
      };
    case "anyOf":
    case "oneOf": {
      const ambiguous = error.keyword === "oneOf" && Array.isArray(p["passingSchemas"]);
      const allowed = allowedOf(error, hint);
      return {
        path,
        rule: error.keyword,
        message: ambiguous
          ? `${received(value)}; it matches more than one of the allowed shapes, so its meaning is ambiguous; send a value that fits exactly one${sendExample(hint)}`
          : `${received(value)}; it matches none of the allowed shapes` +
            (hint.types ? ` (accepted types: ${hint.types.join(", ")})` : "") +
            (allowed ? `; allowed values: ${listed(allowed)}` : sendExample(hint)),
      };
    }
    default:
      return { path, rule: error.keyword, message: `${received(value)}; ${error.message ?? `violates "${error.keyword}"`}${sendExample(hint)}` };
  }
}

function typeMessage(expected: string, value: unknown, hint: SchemaHint): string {
  const wanted = expected.split(",");
  let advice: string;
  if ((wanted.includes("number") || wanted.includes("integer")) && typeof value === "string") {
    const suggestion = suggestNumber(value);
    const whole = suggestion !== undefined && Number.isInteger(Number(suggestion));
    if (suggestion !== undefined && (whole || wanted.includes("number"))) {
      advice = `send ${suggestion} as a JSON number — no quotes, no thousands separators, no currency symbols`;
    } else if (suggestion !== undefined) {
      advice = "send a whole JSON number, without quotes";
    } else {
      advice = `send a JSON number without quotes${sendExample(hint)}`;
    }
  } else if (wanted.includes("boolean") && typeof value === "string") {
    advice = "send true or false, without quotes";
  } else {
    advice = `send ${wanted.length > 1 ? "one of these types" : "it as"} ${wanted.join(" or ")}${sendExample(hint)}`;
  }
  return `expected ${wanted.join(" or ")}, ${received(value)}; ${advice}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function squash(name: string): string {
  return normaliseNearMiss(name);
}
