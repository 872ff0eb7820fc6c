// A list of names (allowed values, property names, a union's kinds) as the near-miss search reads
// it, built once per list: each name's normal form, the first name of each normal form (an exact
// match is a Map lookup, not a scan), and the names grouped by the length of their normal form.
// A name more than MAX_EDITS longer or shorter than the received text is never within reach, so
// the search reads the five groups around the text's length and skips the rest unread: of a
// thousand currency codes it compares the few dozen of the right length. The lists are the hint
// table's own (or ajv's, a constant of the validator), so each is indexed once per process.
import { normaliseNearMiss } from "./near-miss.ts";
import { StringLookup } from "./string-lookup.ts";

/** Most edits between a received text and a suggestion (explain/spelling.ts). */
export const MAX_EDITS = 2;

export interface CandidateSet {
  readonly names: readonly string[];
  /** `names[i]`'s normal form (`normaliseNearMiss`). */
  readonly normals: readonly string[];
  /** Each normal form's first name in the list. */
  readonly exact: StringLookup<string>;
  /** Indices into `names`, by the length of their normal form (in list order within a length). */
  readonly byLength: readonly (readonly number[] | undefined)[];
}

const setsByList = new WeakMap<readonly string[], CandidateSet>();

/** The candidate set of `names`, built on first use. */
export function candidateSet(names: readonly string[]): CandidateSet {
  let set = setsByList.get(names);
  if (set === undefined) setsByList.set(names, (set = build(names)));
  return set;
}

function build(names: readonly string[]): CandidateSet {
  const normals = names.map(normaliseNearMiss);
  const byLength: number[][] = [];
  normals.forEach((normal, index) => {
    (byLength[normal.length] ??= []).push(index);
  });
  const exact = new StringLookup(normals.map((normal, index) => [normal, names[index] as string] as const));
  return { names, normals, exact, byLength };
}
