// Near misses no edit distance finds: a value cut short (`asc` for `ascending`, `Esc` for
// `Escape`, `desc` for `description`) and a locale with a region where the list has the bare
// language (`pt-BR` where the list has `pt`). Only a reading that names exactly one allowed value
// is offered; two candidates offer nothing.
import { normaliseNearMiss } from "./near-miss.ts";

/** A shorter text than this is not read as the start of a value: `a` starts too many. */
export const MIN_PREFIX = 3;

/** A locale with a region (`pt-BR`, `en_US`): its language before the separator, lower case. */
export function localeLanguage(text: string): string | undefined {
  return /^([a-z]{2,3})[-_][a-z]{2,4}$/i.exec(text.trim())?.[1]?.toLowerCase();
}

/**
 * Whether `text` (normal form `key`) is long enough to be read as the start of a value. A text
 * cut at a separator (`ON_` of `ON_WORKER`, `no ` of `no longer needed`) is as long as written:
 * its normal form drops the `_` or the space, but the cut shows where the value's first word ends.
 */
export function longEnoughToStart(text: string, key: string): boolean {
  return key.length >= MIN_PREFIX || (key.length >= 2 && /^[^\s_-]+[\s_-]$/.test(text) && text.length >= MIN_PREFIX);
}

/** The one value of `values` that `text` abbreviates or is a regional form of, if exactly one (`key`: `text`'s normal form, when the caller has it). */
export function prefixMatch(
  text: string,
  values: Iterable<string>,
  normalOf: (value: string) => string = normaliseNearMiss,
  key: string = normaliseNearMiss(text),
): string | undefined {
  const language = localeLanguage(text);
  const long = longEnoughToStart(text, key);
  let found: string | undefined;
  let count = 0;
  for (const value of values) {
    const normal = normalOf(value);
    const abbreviates = long && normal.length > key.length && normal.startsWith(key);
    if (!abbreviates && normal !== language) continue;
    if (found !== value) count++;
    found = value;
    if (count > 1) return undefined;
  }
  return found;
}

/**
 * The one name of `names` that `text` abbreviates: its start (`lon` for `longitude`, `desc` for
 * `description`) or its letters in order from the same first letter (`qty` for `quantity`,
 * `msg` for `message`). Undefined when none or several do.
 */
export function abbreviationOf(text: string, names: readonly string[]): string | undefined {
  const key = normaliseNearMiss(text);
  if (key.length < MIN_PREFIX) return undefined;
  const starts: string[] = [];
  const letters: string[] = [];
  for (const name of names) {
    const normal = normaliseNearMiss(name);
    if (normal.length < key.length + 2 || normal[0] !== key[0]) continue;
    if (normal.startsWith(key)) starts.push(name);
    else if (inOrder(key, normal)) letters.push(name);
  }
  // A name the text starts is a closer reading than one whose letters it merely holds.
  if (starts.length > 0) return starts.length === 1 ? starts[0] : undefined;
  return letters.length === 1 ? letters[0] : undefined;
}

function inOrder(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}
