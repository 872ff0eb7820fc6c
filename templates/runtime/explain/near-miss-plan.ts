// What the near-miss search (rules/enum.ts `nearMiss`) reads of one hint, derived on the first
// failed call that asks there and reused by every later one: the listed strings as a candidate
// set (candidate-set.ts), the normal forms two of them share, and the near-miss table's keys in
// order, so that the one key a text starts (`asc` for `ascending`) is a binary search, not a scan.
import type { JsonValue, SchemaHint } from "../contract/tool-spec.ts";
import { type CandidateSet, candidateSet } from "./candidate-set.ts";
import { localeLanguage, longEnoughToStart } from "./prefix-match.ts";
import { StringLookup, stringSet } from "./string-lookup.ts";

export interface NearMissPlan {
  /**
   * The near-miss table: a received text's normal form is a fresh string, which an object looks
   * up in the engine's table of every interned string; a small table is scanned (string-lookup.ts).
   */
  readonly table: StringLookup<JsonValue> | undefined;
  /** The hint's listed strings (`allowed`), undefined when it lists none. */
  readonly listed: CandidateSet | undefined;
  /**
   * The strings the shared normal forms are read among: the listed ones, else ajv's list of the set
   * (drf-spectacular's `ordering`, 14 fields each with its descending twin: too many to list).
   */
  readonly signed: CandidateSet | undefined;
  /** Normal forms more than one of those strings has (`user`, `-user`): usually none, asked with a fresh string. */
  readonly shared: StringLookup<true>;
  /** The near-miss table's keys (every allowed string's normal form), undefined without a table. */
  readonly keys: readonly string[] | undefined;
  /** Those keys sorted: the keys a text starts are a run of neighbours. */
  readonly sortedKeys: readonly string[];
  /** Keys a locale's language can be (two or three letters): `pt` for `pt-BR`. */
  readonly languages: ReadonlySet<string>;
}

const plans = new WeakMap<SchemaHint, NearMissPlan>();

/** Most values of ajv's list read for their shared normal forms, where the hint lists none. */
const MAX_SIGNED_VALUES = 1000;

/** `allowedValues`: ajv's list of the set at the hint (one list per hint), read where the hint lists none. */
export function nearMissPlan(hint: SchemaHint, allowedValues?: unknown): NearMissPlan {
  let plan = plans.get(hint);
  // A plan made where no list came (a union's reading) is made again when one does.
  if (plan === undefined || (plan.signed === undefined && readable(allowedValues))) plans.set(hint, (plan = build(hint, allowedValues)));
  return plan;
}

function readable(allowedValues: unknown): allowedValues is readonly unknown[] {
  return Array.isArray(allowedValues) && allowedValues.length <= MAX_SIGNED_VALUES;
}

function build(hint: SchemaHint, allowedValues: unknown): NearMissPlan {
  const listed = hint.allowed === undefined ? undefined : candidateSet(stringsOf(hint.allowed));
  const signed = listed ?? (readable(allowedValues) ? candidateSet(stringsOf(allowedValues)) : undefined);
  const seen = new Set<string>();
  const shared: string[] = [];
  for (const normal of signed?.normals ?? []) {
    if (seen.has(normal)) shared.push(normal);
    seen.add(normal);
  }
  const keys = hint.nearMisses === undefined ? undefined : Object.keys(hint.nearMisses);
  const sortedKeys = keys === undefined ? [] : [...keys].sort();
  const languages = new Set(sortedKeys.filter((key) => /^[a-z]{2,3}$/.test(key)));
  const table = hint.nearMisses === undefined ? undefined : new StringLookup(Object.entries(hint.nearMisses));
  return { table, listed, signed, shared: stringSet(shared), keys, sortedKeys, languages };
}

/**
 * The one near-miss key that `text` (normal form `key`) abbreviates or is a regional form of,
 * if exactly one: `prefixMatch` over the plan's keys, with the same answers. The keys a text
 * starts are found by binary search; the locale's pattern is tried only where a key can be a
 * language and the text has a separator a locale needs.
 */
export function startOf(plan: NearMissPlan, text: string, key: string): string | undefined {
  let found: string | undefined;
  let count = 0;
  if (longEnoughToStart(text, key)) {
    const sorted = plan.sortedKeys;
    for (let at = lowerBound(sorted, key); at < sorted.length; at++) {
      const candidate = sorted[at] as string;
      if (!candidate.startsWith(key)) break;
      if (candidate.length === key.length) continue;
      if (++count > 1) return undefined;
      found = candidate;
    }
  }
  if (plan.languages.size > 0 && (text.includes("-") || text.includes("_"))) {
    // A key that is a language (two or three letters) is never one a text of three or more starts with a longer rest.
    const language = localeLanguage(text);
    if (language !== undefined && plan.languages.has(language)) {
      if (++count > 1) return undefined;
      found = language;
    }
  }
  return found;
}

/** The first index of `sorted` whose entry is not below `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

const stringsOfList = new WeakMap<readonly unknown[], readonly string[]>();

/** The strings of a list of allowed values, once per list. */
export function stringsOf(values: readonly unknown[]): readonly string[] {
  let strings = stringsOfList.get(values);
  if (strings === undefined) stringsOfList.set(values, (strings = values.filter((value): value is string => typeof value === "string")));
  return strings;
}
