// Turns ajv's errors into errors written for the model: where (JSON Pointer), which rule, what
// was received (shortened, JSON-quoted) and what to send. Every hint that needs the schema was
// computed at build time into the hint table, so explaining never walks the schema.
import type { ArgumentError } from "../contract/outcome.ts";
import type { AjvError, HintTable, JsonValue, SchemaHint } from "../contract/tool-spec.ts";
import { comparePointers, escapeToken, valueAt } from "../json/json-pointer.ts";
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
  const errors = collapseAlternatives(examined, document, hints).map((error) => explainOne(error, document, hints));
  return finish(errors, maxErrors, ajvErrors.length - examined.length);
}

/** Most ajv errors explained for one attempt; beyond it they are only counted. */
const MAX_EXAMINED = 500;

/** Deduplicates, orders by path, and caps the list with a closing "and N more" entry. */
export function finish(errors: readonly ArgumentError[], maxErrors: number, unexamined = 0): ArgumentError[] {
  // Sort first (stable, comparing paths in place), then drop repeats: equal errors compare
  // equal, so they sit in one run of the sorted list and are found by comparing within the run,
  // without hashing every message (which cost more than explaining). The repair chain keeps the
  // list until it ends, so when nothing repeats (nearly always) the answer is the sorted copy,
  // exactly as long as it needs to be: a list grown by `push` carries a dozen spare slots.
  const sorted = sortedCopy(errors);
  let pruned: ArgumentError[] | undefined;
  let run = 0;
  for (let i = 0; i < sorted.length; i++) {
    const error = sorted[i] as ArgumentError;
    // Until the first repeat, the errors kept so far are exactly sorted[0..i).
    const kept = pruned ?? sorted;
    const count = pruned ? pruned.length : i;
    // Equal errors share path and rule, and sit next to each other: a new run starts at the
    // first error whose path or rule differs from its predecessor's (equality, not order).
    const previous = sorted[i - 1];
    if (previous === undefined || previous.path !== error.path || previous.rule !== error.rule) run = count;
    else if (isRepeat(error, kept, run, count)) {
      pruned ??= sorted.slice(0, i);
      continue;
    }
    pruned?.push(error);
  }
  const unique = pruned ?? sorted;
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

/**
 * A stable sorted copy. A short list (nearly every failed call) is sorted here by binary
 * insertion: the engine's sort calls the comparator through a boundary that cost about as much
 * as the comparisons themselves.
 */
function sortedCopy(errors: readonly ArgumentError[]): ArgumentError[] {
  if (errors.length > INSERTION_SORT_MAX) return [...errors].sort(compareErrors);
  const sorted = [...errors];
  for (let i = 1; i < sorted.length; i++) {
    const error = sorted[i] as ArgumentError;
    // Already in place (ajv's order often is): one comparison.
    if (compareErrors(sorted[i - 1] as ArgumentError, error) <= 0) continue;
    // Otherwise the first of sorted[0..i) greater than it, by binary search: stable.
    let low = 0;
    let high = i - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareErrors(sorted[middle] as ArgumentError, error) > 0) high = middle;
      else low = middle + 1;
    }
    for (let j = i; j > low; j--) sorted[j] = sorted[j - 1] as ArgumentError;
    sorted[low] = error;
  }
  return sorted;
}

/** Longest list sorted by insertion: beyond it, moving elements costs more than the engine's overhead. */
const INSERTION_SORT_MAX = 24;

function compareErrors(a: ArgumentError, b: ArgumentError): number {
  return comparePointers(a.path, b.path) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

/** Whether `kept[from..to)` (one run of equal path and rule) already holds the same error. */
function isRepeat(error: ArgumentError, kept: readonly ArgumentError[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const other = kept[i] as ArgumentError;
    if (other.path === error.path && other.rule === error.rule && other.message === error.message) return true;
  }
  return false;
}

/**
 * A failed `anyOf`/`oneOf` makes ajv report every branch's errors, which reads as contradictory
 * demands. Keep the combinator's own error and drop everything reported inside its branches;
 * drop the bookkeeping `if` error whose `then`/`else` errors are reported anyway. Where the
 * union is discriminated and the value names a branch (`"type": "pull_request"`), that branch's
 * errors are the ones the model needs: they are kept instead of the combinator's.
 *
 * toolguard's validators say which errors the branches left (`branchErrors`, `branchStarts`:
 * see generator/emit/union-errors.ts); schema paths cannot, since a `$ref` branch reports paths
 * under its own definition. A validator without them (compiled by plain ajv) is read by schema
 * path: errors under the union's own path.
 */
function collapseAlternatives(errors: readonly AjvError[], document: unknown, hints: HintTable): readonly AjvError[] {
  let dropped: Uint8Array | undefined;
  let prefixes: string[] | undefined;
  let bookkeeping = false;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i] as AjvError;
    if (error.keyword === "anyOf" || error.keyword === "oneOf") {
      const count = error.params["branchErrors"];
      if (typeof count !== "number") {
        (prefixes ??= []).push(`${error.schemaPath}/`);
        continue;
      }
      dropped ??= new Uint8Array(errors.length);
      const from = Math.max(0, i - count);
      const branch = branchErrors(error, from, i, chosenBranch(error, document, hints));
      if (branch === undefined || !keepOnly(dropped, from, i, branch)) dropped.fill(1, from, i);
      else dropped[i] = 1; // the branch's own errors say it better than "matches none"
    } else if (error.keyword === "if") bookkeeping = true;
  }
  if (dropped === undefined && prefixes === undefined && !bookkeeping) return errors; // the usual case: nothing to drop
  return errors.filter(
    (error, i) => dropped?.[i] !== 1 && error.keyword !== "if" && !(prefixes?.some((prefix) => error.schemaPath.startsWith(prefix)) ?? false),
  );
}

/** The index of the branch a discriminated union's value names, or -1. */
function chosenBranch(error: AjvError, document: unknown, hints: HintTable): number {
  const discriminator = locate(error, hints).hint.discriminator;
  return discriminator === undefined ? -1 : (namedBranch(discriminator, valueAt(document, error.instancePath)) ?? -1);
}

type Discriminator = NonNullable<SchemaHint["discriminator"]>;

/**
 * The branch `value` names through its discriminator property: the branch's index, or -1 when
 * the property names none; undefined when `value` is not an object holding the property.
 */
function namedBranch(discriminator: Discriminator, value: unknown): number | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, discriminator.property)) return undefined;
  const named = (value as Record<string, unknown>)[discriminator.property];
  return discriminator.branches.findIndex((branch) => branch.values.some((candidate) => candidate === named));
}

/** Where branch `index`'s errors lie in `errors`: `[begin, end)`, inside the union's `[from, to)`. */
function branchErrors(error: AjvError, from: number, to: number, index: number): readonly [number, number] | undefined {
  const starts = error.params["branchStarts"];
  if (index < 0 || !Array.isArray(starts) || typeof starts[index] !== "number") return undefined;
  let end = to;
  for (let next = index + 1; next < starts.length; next++) {
    const start: unknown = starts[next];
    if (typeof start === "number") {
      end = from + start;
      break;
    }
  }
  return [from + (starts[index] as number), end];
}

/** Drops `[from, to)` except `[begin, end)`; whether any error of that branch is left to report. */
function keepOnly(dropped: Uint8Array, from: number, to: number, [begin, end]: readonly [number, number]): boolean {
  let kept = false;
  for (let j = Math.max(from, begin); j < Math.min(to, end); j++) kept ||= dropped[j] !== 1;
  if (!kept) return false;
  dropped.fill(1, from, Math.max(from, begin));
  dropped.fill(1, Math.min(to, end), to);
  return true;
}

/**
 * One schema location as ajv names it (`#/properties/currency/enum`): its hint, and the parts of
 * a message about it that do not depend on the received value, built on first use. ajv's schema
 * paths are string constants in the validator, so the map is bounded by the schema, and the
 * second error at a location costs a lookup instead of listing, quoting and joining again.
 */
interface Location {
  readonly hint: SchemaHint;
  readonly fixed: Map<string, string>;
}

function locate(error: AjvError, hints: HintTable): Location {
  let bySchemaPath = locationsByTable.get(hints);
  if (bySchemaPath === undefined) locationsByTable.set(hints, (bySchemaPath = new Map()));
  let location = bySchemaPath.get(error.schemaPath);
  if (location === undefined) {
    const at = error.schemaPath.lastIndexOf("/");
    location = { hint: hints[at > 0 ? error.schemaPath.slice(0, at) : "#"] ?? NO_HINT, fixed: new Map() };
    bySchemaPath.set(error.schemaPath, location);
  }
  return location;
}

/** The fixed text `key` of `location`, made by `make` the first time it is asked for. */
function fixed(location: Location, key: string, make: () => string): string {
  let text = location.fixed.get(key);
  if (text === undefined) location.fixed.set(key, (text = make()));
  return text;
}

/** The allowed property names in near-miss form, computed once per hint. */
function squashedProperties(hint: SchemaHint): readonly string[] {
  let squashed = squashedByHint.get(hint);
  if (squashed === undefined) squashedByHint.set(hint, (squashed = (hint.properties ?? []).map(squash)));
  return squashed;
}

const squashedByHint = new WeakMap<SchemaHint, readonly string[]>();

const locationsByTable = new WeakMap<HintTable, Map<string, Location>>();

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
  const location = locate(error, hints);
  const hint = location.hint;
  const path = error.instancePath;
  const p = error.params;
  switch (error.keyword) {
    case "required": {
      const name = String(p["missingProperty"]);
      return {
        path: childPath(path, name),
        rule: "required",
        message: fixed(location, name, () => {
          const description = hint.propertyDescriptions?.[name];
          const example = hint.propertyExamples?.[name];
          return (
            `missing required field ${JSON.stringify(name)}` +
            (description ? ` (${clip(description, 120)})` : "") +
            (example !== undefined ? `; for example ${shorten(example, 60)}` : "") +
            "; if you do not know its value, ask the user instead of guessing"
          );
        }),
      };
    }
    case "additionalProperties": {
      const name = String(p["additionalProperty"]);
      const allowed = hint.properties ?? [];
      const close = allowed[squashedProperties(hint).indexOf(squash(name))];
      const shown = shorten(name);
      return {
        // A long name is the model's text, possibly instructions: only its shortened, quoted
        // form appears, so the path stops at the object that holds it.
        path: shown === JSON.stringify(name) ? childPath(path, name) : path,
        rule: "additionalProperties",
        message:
          `unknown field ${shown}` +
          (close ? `; did you mean ${JSON.stringify(close)}?` : ".") +
          fixed(location, "", () => (allowed.length > 0 ? ` This object accepts only ${allowed.join(", ")}` : " Remove it")),
      };
    }
    case "type":
      return { path, rule: "type", message: typeMessage(location, String(p["type"]), valueAt(document, path)) };
    case "enum": {
      const value = valueAt(document, path);
      const allowed = fixed(location, "", () => {
        const values = allowedOf(error, hint);
        return values ? `must be one of ${listed(values)}` : `must be one of the allowed values${sendExample(hint)}`;
      });
      return { path, rule: "enum", message: `${received(value)}; ${allowed}${nearMiss(value, hint)}` };
    }
    case "const":
      return { path, rule: "const", message: `${received(valueAt(document, path))}; ${fixed(location, "", () => `must be exactly ${shorten(p["allowedValue"], 60)}`)}` };
    case "format": {
      const expected = fixed(location, "", () => {
        const format = String(p["format"]);
        const example = exampleOf(hint) ?? FORMAT_EXAMPLES[format];
        return `expected a ${format} string` + (example !== undefined ? ` such as ${shorten(example, 60)}` : "");
      });
      return { path, rule: "format", message: `${received(valueAt(document, path))}; ${expected}` };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return {
        path,
        rule: error.keyword,
        message: `${received(valueAt(document, path))}; ${fixed(location, "", () => `must be ${String(p["comparison"])} ${String(p["limit"])}`)}`,
      };
    case "minLength":
    case "maxLength": {
      const bound = fixed(
        location,
        "",
        () => `must be ${error.keyword === "minLength" ? "at least" : "at most"} ${String(p["limit"])} characters long${sendExample(hint)}`,
      );
      return { path, rule: error.keyword, message: `${received(valueAt(document, path))}; ${bound}` };
    }
    case "minItems":
    case "maxItems": {
      const value = valueAt(document, path);
      const bound = fixed(location, "", () => `must have ${error.keyword === "minItems" ? "at least" : "at most"} ${String(p["limit"])}`);
      return { path, rule: error.keyword, message: `got ${Array.isArray(value) ? value.length : 0} items; ${bound}` };
    }
    case "anyOf":
    case "oneOf": {
      const discriminated = hint.discriminator && explainDiscriminator(location, hint.discriminator, path, valueAt(document, path));
      if (discriminated) return discriminated;
      const ambiguous = error.keyword === "oneOf" && Array.isArray(p["passingSchemas"]);
      const advice = ambiguous
        ? fixed(location, "ambiguous", () => `it matches more than one of the allowed shapes, so its meaning is ambiguous; send a value that fits exactly one${sendExample(hint)}`)
        : fixed(location, "none", () => {
            const allowed = allowedOf(error, hint);
            return (
              "it matches none of the allowed shapes" +
              (hint.types ? ` (accepted types: ${hint.types.join(", ")})` : "") +
              (allowed ? `; allowed values: ${listed(allowed)}` : sendExample(hint))
            );
          });
      return { path, rule: error.keyword, message: `${received(valueAt(document, path))}; ${advice}` };
    }
    default:
      // ajv's own message may name the value (uniqueItems names the duplicate items): not fixed.
      return {
        path,
        rule: error.keyword,
        message: `${received(valueAt(document, path))}; ${error.message ?? `violates "${error.keyword}"`}${fixed(location, "example", () => sendExample(hint))}`,
      };
  }
}

/**
 * A discriminated union whose value names no branch: the discriminator is what to fix, and the
 * message lists what it may be. Undefined when the value is not an object (the usual message
 * applies) or names a branch (its errors were kept instead, see collapseAlternatives).
 */
function explainDiscriminator(location: Location, discriminator: Discriminator, path: string, value: unknown): ArgumentError | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const index = namedBranch(discriminator, value);
  if (index !== undefined && index >= 0) return undefined;
  const { property } = discriminator;
  const allowed = fixed(location, "kinds", () => {
    const kinds = discriminator.branches.flatMap((branch) => branch.values);
    return kinds.length <= LISTED_KINDS ? listed(kinds) : `${listed(kinds.slice(0, LISTED_KINDS))} and ${kinds.length - LISTED_KINDS} more`;
  });
  const at = childPath(path, property);
  if (index === undefined) {
    return { path: at, rule: "required", message: `missing required field ${JSON.stringify(property)}, which says what kind of object this is: one of ${allowed}` };
  }
  const named = (value as Record<string, unknown>)[property];
  const close = typeof named === "string" ? discriminator.branches.flatMap((branch) => branch.values).find((kind) => normaliseNearMiss(kind) === normaliseNearMiss(named)) : undefined;
  return {
    path: at,
    rule: "enum",
    message: `${received(named)}; ${JSON.stringify(property)} says what kind of object this is and must be one of ${allowed}` + (close ? ` — did you mean ${JSON.stringify(close)}?` : ""),
  };
}

/** Discriminator values listed in full up to this many (they are short names, and the model needs the exact one). */
const LISTED_KINDS = 40;

function typeMessage(location: Location, expected: string, value: unknown): string {
  const hint = location.hint;
  const wanted = fixed(location, "wanted", () => expected.split(",").join(" or "));
  // `expected` is ajv's comma-separated list of JSON type names, none of which contains another.
  const number = expected.includes("number");
  let advice: string;
  if ((number || expected.includes("integer")) && typeof value === "string") {
    const suggestion = suggestNumber(value);
    const whole = suggestion !== undefined && Number.isInteger(Number(suggestion));
    if (suggestion !== undefined && (whole || number)) {
      advice = `send ${suggestion} as a JSON number — no quotes, no thousands separators, no currency symbols`;
    } else if (suggestion !== undefined) {
      advice = "send a whole JSON number, without quotes";
    } else {
      advice = fixed(location, "number", () => `send a JSON number without quotes${sendExample(hint)}`);
    }
  } else if (expected.includes("boolean") && typeof value === "string") {
    advice = "send true or false, without quotes";
  } else {
    advice = fixed(location, "", () => `send ${expected.includes(",") ? "one of these types" : "it as"} ${wanted}${sendExample(hint)}`);
  }
  return `expected ${wanted}, ${received(value)}; ${advice}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function squash(name: string): string {
  return normaliseNearMiss(name);
}
