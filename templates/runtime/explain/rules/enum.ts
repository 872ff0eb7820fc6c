// A value outside a fixed set (`enum`, `const`): the set when it is small, and the value the
// model most plausibly meant (case, separators, or up to two edits away: explain/spelling.ts; a
// prefix: prefix-match.ts; a synonym: synonyms.ts).
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError, HintTable, JsonValue, SchemaHint } from "../../contract/tool-spec.ts";
import { fixed, remember, rememberedMessage, rememberMessage, type Location } from "../location.ts";
import { normaliseNearMiss } from "../near-miss.ts";
import { type NearMissPlan, nearMissPlan, startOf, stringsOf } from "../near-miss-plan.ts";
import { longEnoughToStart } from "../prefix-match.ts";
import { siblingFor, siblingMayList } from "../sibling-values.ts";
import { closestInSet, closestNormalName, closestSpelling, editDistance } from "../spelling.ts";
import { synonymOf } from "../synonyms.ts";
import { optionalAt } from "../optional.ts";
import { HiddenValue, LISTED_VALUES, listed, received, sendExample, shorten, shownAt, typeOf } from "../text.ts";
import { literalFormAdvice } from "./literal-forms.ts";

export function explainEnum(error: AjvError, location: Location, document: unknown, hints?: HintTable): ArgumentError {
  const hint = location.hint;
  const path = error.instancePath;
  const value = shownAt(document, path);
  // The message of a near miss follows from the location and the text alone: said before, it is looked up.
  const said = typeof value === "string" ? rememberedMessage(location, value) : undefined;
  if (said !== undefined) return { path, rule: "enum", message: said };
  const optional = optionalAt(hint, path);
  if (value === null && optional) return { path, rule: "enum", message: `${received(value)}; this field is optional: omit it rather than sending null` };
  const allowed = fixed(location, "", () => {
    const values = allowedOf(error, hint);
    // One allowed value (a union member's tag, named by the member's other fields): that value is what to send.
    if (values?.length === 1) return `must be exactly ${shorten(values[0], 60)}`;
    return values ? `must be one of ${listed(values)}` : `must be one of the allowed values${sendExample(hint)}`;
  });
  // A set written without `type` (Lithic's query filters, `{enum: ["APPROVED", "DECLINED"]}`):
  // no type error comes before this one, so a list of one is read here, as the type rule reads it
  // against the types of the listed values (`send "APPROVED"`).
  const shape =
    hint.types === undefined && (Array.isArray(value) || value instanceof HiddenValue) ? untypedSetReading(error, hint, value, optional) : undefined;
  if (shape !== undefined) return { path, rule: "enum", message: `${received(value)}; ${allowed}: ${shape}` };
  const meant =
    typeof value === "string"
      ? remember(location, value, () => nearMiss(value, hint, error.params["allowedValues"]) as string | undefined)
      : value instanceof HiddenValue
        ? (hiddenNearMiss(value, hint, error.params["allowedValues"]) as string | undefined)
        : undefined;
  // A value of one sibling field exactly (Doppler's `format: "camel"`, a `name_transformer`) is a
  // closer reading than a spelling two edits away (`yaml`); one edit away the spelling stands.
  const schemaLocation = error.schemaPath.slice(0, error.schemaPath.lastIndexOf("/"));
  // Whether a sibling takes the text depends on the call only where some sibling lists it at all.
  const byCall =
    typeof value === "string" &&
    meant !== undefined &&
    hints !== undefined &&
    siblingMayList(hints, schemaLocation, value) &&
    editDistance(normaliseNearMiss(value), normaliseNearMiss(meant)) > 1;
  const moved = byCall ? siblingFor(hints, schemaLocation, { path, value, document }) : undefined;
  if (meant !== undefined && moved === undefined) {
    const message = received(value) + meantSuffix(location, allowed, meant);
    // A secret-named field's text is never a key of the location's memory: only its message is
    // made. Nor is a message the call decides (a distant near miss a sibling may take instead).
    if (typeof value === "string" && !byCall) rememberMessage(location, value, message);
    return { path, rule: "enum", message };
  }
  // No allowed value is meant: the value may be a sibling field's, sent under the wrong name.
  const sibling = moved ?? (hints === undefined ? undefined : siblingFor(hints, schemaLocation, { path, value, document }));
  if (sibling !== undefined) {
    const then = optional ? "" : `, then send this field's own value (ask the user if you do not know it)`;
    return { path, rule: "enum", message: `${received(value)}; ${allowed}. It is a value of ${sibling}: move it to ${sibling}${then}` };
  }
  return { path, rule: "enum", message: `${received(value)}; ${allowed}` };
}

/** The type rule's reading of a value of a type no listed value has, or undefined. */
function untypedSetReading(error: AjvError, hint: SchemaHint, value: unknown, optional: boolean): string | undefined {
  const values = hint.allowed ?? error.params["allowedValues"];
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const types = [...new Set(values.map(typeOf))];
  if (types.includes(typeOf(value)) || (typeOf(value) === "integer" && types.includes("number"))) return undefined;
  // A list's item is offered only when it is a listed value (a set too large to list keeps no
  // `allowed` for literal-forms.ts to check it against).
  if (Array.isArray(value) && !(value.length === 1 && values.includes(value[0]))) return undefined;
  return literalFormAdvice(types.join(","), value, hint, optional);
}

/**
 * `; <allowed> — did you mean "<meant>"?`: what follows the received value in a near miss's
 * message, which depends on the location and the value meant alone (an allowed value: a few per
 * location), made once each.
 */
function meantSuffix(location: Location, allowed: string, meant: string): string {
  const suffixes = (location.meant ??= new Map());
  let suffix = suffixes.get(meant);
  if (suffix === undefined) suffixes.set(meant, (suffix = `; ${allowed} — did you mean ${JSON.stringify(meant)}?`));
  return suffix;
}

export function explainConst(error: AjvError, location: Location, document: unknown): ArgumentError {
  const path = error.instancePath;
  return {
    path,
    rule: "const",
    message: `${received(shownAt(document, path))}; ${fixed(location, "", () => `must be exactly ${shorten(error.params["allowedValue"], 60)}`)}`,
  };
}

export function allowedOf(error: AjvError, hint: SchemaHint): readonly unknown[] | undefined {
  const fromParams = error.params["allowedValues"];
  const values = hint.allowed ?? (Array.isArray(fromParams) ? fromParams : undefined);
  return values && values.length <= LISTED_VALUES ? values : undefined;
}

/**
 * The allowed value a secret-named field's hidden text most plausibly misspells: the same
 * reading as `nearMiss`, of a text the message never quotes, and only among the values the
 * schema lists for the location (ajv's `allowedValues`, else the hint's set): every value of
 * such a field is public, so the one offered tells nothing the schema does not.
 */
export function hiddenNearMiss(value: HiddenValue, hint: SchemaHint, allowedValues?: unknown): JsonValue | undefined {
  const values = Array.isArray(allowedValues) ? (allowedValues as JsonValue[]) : (hint.allowed ?? nearMissValues(hint));
  return value.schemaValueFor(values, (text) => nearMiss(text, hint, allowedValues));
}

/** The values a set too large to list names through its near-miss table. */
export function nearMissValues(hint: SchemaHint): readonly JsonValue[] | undefined {
  return hint.nearMisses === undefined ? undefined : Object.values(hint.nearMisses);
}

/**
 * The allowed value `value` most plausibly misspells, if one stands out. `allowedValues` is
 * ajv's list of the set, read for a set too large for the spelling table (currencies, time zones).
 */
export function nearMiss(value: unknown, hint: SchemaHint, allowedValues?: unknown): JsonValue | undefined {
  if (typeof value !== "string") return undefined;
  const key = normaliseNearMiss(value);
  // What is derived from the hint's lists (the generated table's own) is kept per hint.
  const plan = nearMissPlan(hint, allowedValues);
  const known = plan.table?.get(key);
  if (known !== undefined) return known;
  const nearMisses = hint.nearMisses;
  const listed = plan.listed;
  // Values that share a normal form (`user`, `-user`) have no near-miss entry: the one the text
  // spells but for case is meant (`USER`), and no other reading of that form is offered.
  const signed = plan.signed;
  if (signed !== undefined && plan.shared.has(key)) {
    const lower = value.trim().toLowerCase();
    const same = signed.names.filter((allowed) => allowed.toLowerCase() === lower);
    return same.length === 1 ? same[0] : undefined;
  }
  const large = hint.spellings || listed ? undefined : largeSet(allowedValues);
  const close = hint.spellings
    ? (closestSpelling(value, hint.spellings) ?? longSpelling(key, allowedValues))
    : listed
      ? closestInSet(key, listed)
      : large !== undefined
        ? closestNormalName(key, large)
        : undefined;
  // The near-miss table is keyed by every allowed string's normal form: a prefix is looked for there.
  const normal = plan.keys === undefined ? undefined : startOf(plan, value, key);
  const start = normal === undefined ? undefined : nearMisses?.[normal];
  // The one value a text starts is a closer reading than a spelling two edits away: `met` is
  // `meters` cut short, not `feet` misspelt. One edit away (`cate` for `cat`) the spelling stands.
  if (close !== undefined) {
    // The distance is measured only where another reading is there to beat (on every near miss a call sends).
    const other =
      start ??
      // A word of the synonym table is a closer reading than a spelling two edits away: `remove`
      // is `delete` said otherwise, not `move` with two letters more. One edit away the spelling stands.
      (plan.keys === undefined ? undefined : synonymWord(value, key, plan.keys, nearMisses));
    return other === undefined || other === close || editDistance(key, normaliseNearMiss(close)) <= 1 ? close : other;
  }
  if (start === undefined && plan.shared.size > 0) {
    const signed = startAsWritten(plan, value, key);
    if (signed !== undefined) return signed;
  }
  if (nearMisses === undefined || plan.keys === undefined) return undefined;
  const synonym = synonymWord(value, key, plan.keys, nearMisses);
  // A word that starts one value and is a synonym of another (CloudBase's `add` beside
  // `addSecurityDomain` and `create`) determines neither: none is offered.
  if (start !== undefined) return synonym === undefined || synonym === start ? start : undefined;
  return synonym;
}

/** The one listed value sharing `value`'s synonym group (not a code the text merely resembles), or undefined. */
function synonymWord(value: string, key: string, keys: Iterable<string>, nearMisses: Readonly<Record<string, JsonValue>> | undefined): string | undefined {
  const synonym = nearMisses === undefined ? undefined : synonymOf(value, keys, key);
  const word = synonym === undefined ? undefined : nearMisses?.[synonym];
  return typeof word === "string" && nearMisses !== undefined && !aCode(word, value, nearMisses) ? word : undefined;
}

/**
 * The one listed value a text starts as written, where that value shares its normal form with
 * another (Hostinger's sort, `cre` for `created_at` beside `-created_at`): the table has no entry
 * for a shared form, so the prefix search found none; the sign the text leaves out is read as
 * written, as `USER` is read as `user` beside `-user`.
 */
function startAsWritten(plan: NearMissPlan, value: string, key: string): string | undefined {
  const signed = plan.signed;
  if (signed === undefined || !longEnoughToStart(value, key)) return undefined;
  const text = value.trim().toLowerCase();
  let found: string | undefined;
  for (const name of signed.names) {
    if (name.length <= text.length || !name.toLowerCase().startsWith(text)) continue;
    if (found !== undefined) return undefined;
    found = name;
  }
  return found !== undefined && plan.shared.has(normaliseNearMiss(found)) ? found : undefined;
}

/**
 * Most values of a set compared one by one on the failure path. A set past the spelling table's
 * size (64) gets no table (it would be large in the generated code); it is compared directly,
 * and only when a call has sent a value outside it.
 */
const MAX_COMPARED_VALUES = 1000;

/** The strings of ajv's allowed values, once per list (so spelling.ts's normal forms are cached too); undefined past MAX_COMPARED_VALUES. */
function largeSet(values: unknown): readonly string[] | undefined {
  if (!Array.isArray(values) || values.length > MAX_COMPARED_VALUES) return undefined;
  return stringsOf(values);
}

/**
 * Texts at least this long (normal form) may misspell a value the spelling table leaves out: it
 * keeps values of up to 40 characters, so that a long set does not fill the generated code.
 */
const LONGER_THAN_TABLE = 38;

/**
 * The value a long text misspells, compared directly with ajv's list of the set (Lithic's event
 * types, `tokenization.two_factor_authentication_code_sent`: 45 characters): on the failure path
 * only, linear in the text's length per value (spelling.ts), and only past the table's reach.
 */
function longSpelling(key: string, allowedValues: unknown): string | undefined {
  if (key.length < LONGER_THAN_TABLE) return undefined;
  const values = largeSet(allowedValues);
  return values === undefined ? undefined : closestNormalName(key, values);
}

/** Shorter upper-case values than this are read as codes (`NO`, `US`, `ASC`) rather than words. */
const CODE_LENGTH = 3;

/**
 * Whether the upper-case synonym `word` is a code the received text does not spell: `NO` is
 * Norway, not `off`. A longer upper-case value is a word in capitals (`DESCENDING` for
 * `decreasing`, `DESC` for `descending`), and a code the text starts with is its abbreviation
 * (`ASC` for `ascending`); a text in capitals is read in its own case. A short value is a code
 * only in a set of codes, where more than half the values are short and in capitals
 * (`["NO", "SE", "DK"]`): beside longer words it is a word too (GitLab's `scope`, `["ALL",
 * "NAMESPACES"]`: `any` means `ALL`).
 */
function aCode(word: string, value: string, nearMisses: Readonly<Record<string, JsonValue>>): boolean {
  if (word !== word.toUpperCase() || value === value.toUpperCase()) return false;
  if (word.length > CODE_LENGTH) return false;
  if (normaliseNearMiss(value).startsWith(normaliseNearMiss(word))) return false;
  return codeSet(nearMisses);
}

/** Whether more than half the strings a near-miss table names are codes: short and in capitals. */
function codeSet(nearMisses: Readonly<Record<string, JsonValue>>): boolean {
  const values = new Set<string>();
  for (const allowed of Object.values(nearMisses)) if (typeof allowed === "string") values.add(allowed);
  let codes = 0;
  for (const allowed of values) if (allowed.length <= CODE_LENGTH && allowed === allowed.toUpperCase()) codes++;
  return codes * 2 > values.size;
}
