// Near misses further than a case or separator change (`jpg` for `jpeg`, `opened` for `open`,
// `canceled` for `cancelled`). The generator writes, per location, every allowed value's normal
// form with at most one character deleted (see generator/emit/spelling-table.ts); here the
// received text's normal form with up to two deleted is looked up, which finds every value
// within two edits of it, and the closest wins. A tie suggests nothing: a guess the model cannot
// tell from the right one teaches nothing.
import { candidateSet, MAX_EDITS, type CandidateSet } from "./candidate-set.ts";
import { normaliseNearMiss } from "./near-miss.ts";

type Spellings = Readonly<Record<string, string | readonly string[]>>;

/** Received texts longer than this are not looked up (the deletions grow with the square). */
const MAX_LOOKED_UP = 40;
/**
 * Received names compared against a list directly (property names, listed values) up to this
 * length: no deletions are made, and the banded distance is linear in the length. Box's
 * `shield_information_barrier_segment_restriction_id` is 49 characters.
 */
const MAX_NAME_LOOKED_UP = 64;

/** The allowed value `text` most plausibly misspells, or undefined when none or several do. */
export function closestSpelling(text: string, spellings: Spellings | undefined): string | undefined {
  if (spellings === undefined) return undefined;
  const key = normaliseNearMiss(text);
  if (key.length < 2 || key.length > MAX_LOOKED_UP) return undefined;
  const found = new Set<string>();
  const look = (candidate: string): void => {
    if (!Object.hasOwn(spellings, candidate)) return;
    const values = spellings[candidate] as string | readonly string[];
    if (typeof values === "string") found.add(values);
    else for (const value of values) found.add(value);
  };
  look(key);
  for (let i = 0; i < key.length; i++) {
    const once = key.slice(0, i) + key.slice(i + 1);
    look(once);
    for (let j = i; j < once.length; j++) look(once.slice(0, j) + once.slice(j + 1));
  }
  return closest(key, found);
}

/**
 * The accepted property name `text` most plausibly misspells. Property names have no deletion
 * table: every closed object would carry one, and its list of names (at most 40, in the hint
 * already) is short enough to compare against directly, on the failure path only.
 */
export function closestName(text: string, names: readonly string[] | undefined): string | undefined {
  return names === undefined || names.length === 0 ? undefined : closestNormalName(normaliseNearMiss(text), names);
}

/** `closestName` of a text already in its normal form (`normaliseNearMiss`). */
export function closestNormalName(key: string, names: readonly string[]): string | undefined {
  return names.length === 0 ? undefined : closestInSet(key, candidateSet(names));
}

/** `closestNormalName` of a list's candidate set (candidate-set.ts). */
export function closestInSet(key: string, set: CandidateSet): string | undefined {
  if (set.names.length === 0) return undefined;
  const exact = set.exact.get(key);
  if (exact !== undefined) return exact;
  return key.length < 2 || key.length > MAX_NAME_LOOKED_UP ? undefined : closestIn(key, set);
}

/** The normal forms of a list from the hint table, computed once per list (so a list made per call is never cached here). */
export function normalFormsOf(names: readonly string[]): readonly string[] {
  return candidateSet(names).normals;
}

/**
 * The one value at the least distance from `key` within reach (see `closest`), read from the
 * groups of the set whose length can be within reach: the same answer as comparing every name,
 * since which name is closest, or whether two tie, does not depend on the order they are read in.
 */
function closestIn(key: string, set: CandidateSet): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  let tied = false;
  const { byLength, names, normals } = set;
  const last = Math.min(key.length + MAX_EDITS, byLength.length - 1);
  for (let length = Math.max(0, key.length - MAX_EDITS); length <= last; length++) {
    const group = byLength[length];
    if (group === undefined) continue;
    const reach = Math.min(MAX_EDITS, length >> 1);
    if (Math.abs(length - key.length) > reach) continue;
    for (const index of group) {
      const distance = editsWithin(key, normals[index] as string, reach);
      if (distance > reach) continue;
      const value = names[index] as string;
      if (distance < bestDistance) [best, bestDistance, tied] = [value, distance, false];
      else if (distance === bestDistance && value !== best) tied = true;
    }
  }
  return tied ? undefined : best;
}

/** `closestIn` over values found in the spelling table, each normalised here. */
function closest(key: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  let tied = false;
  for (const value of candidates) {
    const normal = normaliseNearMiss(value);
    // Two edits in a four-letter word are half of it: allowed (`opened`/`open`); more is a different
    // word. So a value is within reach at up to half its length in edits, and never past MAX_EDITS:
    // a three-letter code only one edit away, which its length alone rules out for most texts.
    const reach = Math.min(MAX_EDITS, normal.length >> 1);
    if (Math.abs(normal.length - key.length) > reach) continue;
    const distance = editsWithin(key, normal, reach);
    if (distance > reach) continue;
    if (distance < bestDistance) [best, bestDistance, tied] = [value, distance, false];
    else if (distance === bestDistance && value !== best) tied = true;
  }
  return tied ? undefined : best;
}

/**
 * `editDistance(a, b)` when it is at most `most`, else some number above `most`. Computed
 * bit-parallel when `a` allows (`bitParallelDistance`: the distance itself). Otherwise only the
 * cells within `most` of the table's diagonal can hold a distance of `most` or less (each step
 * off it costs an edit), so only those are computed, and the rest read as `most + 1`: a tenth of
 * the table for two 20-letter values, which `closest` compares on every near miss a call sends.
 */
export function editsWithin(a: string, b: string, most: number): number {
  if (a.length > MAX_COMPARED || b.length > MAX_COMPARED) return Number.MAX_SAFE_INTEGER;
  if (Math.abs(a.length - b.length) > most) return most + 1;
  // Nearly every comparison (normal forms: lower-case ASCII, under 33 letters) takes the
  // bit-parallel way, which gives the distance itself; the table below is for the rest.
  const exact = bitParallelDistance(a, b);
  if (exact >= 0) return exact;
  const far = most + 1;
  let before = ROW_A;
  let above = ROW_B;
  let row = ROW_C;
  for (let j = 0; j <= b.length; j++) above[j] = j <= most ? j : far;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - most);
    const to = Math.min(b.length, i + most);
    // The cells just outside the band stand for "too far": this row reads the one before it, the next row the one after.
    row[from - 1] = from === 1 && i <= most ? i : far;
    if (to < b.length) row[to + 1] = far;
    const ai = a.charCodeAt(i - 1);
    let least = from === 1 && i <= most ? i : far;
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let best = (above[j - 1] as number) + (ai === bj ? 0 : 1);
      const remove = (above[j] as number) + 1;
      const insert = (row[j - 1] as number) + 1;
      if (remove < best) best = remove;
      if (insert < best) best = insert;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        const swap = (before[j - 2] as number) + 1;
        if (swap < best) best = swap;
      }
      if (best > far) best = far;
      row[j] = best;
      if (best < least) least = best;
    }
    // Every way to the end passes through this row: none within reach, none at the end.
    if (least > most) return far;
    const spare = before;
    before = above;
    above = row;
    row = spare;
  }
  return above[b.length] as number;
}

/** Bits in a 32-bit integer: the longest `a` the bit-parallel distance takes. */
const WORD = 32;
/** Character codes the bit-parallel distance's table covers: ASCII. */
const TABLE_CODES = 128;
/** Per character code, the positions of `a` that hold it (bit i: a[i]); all 0 between calls. */
const POSITIONS = new Int32Array(TABLE_CODES);

/**
 * The optimal string alignment distance (`editDistance`) of `a` and `b` by Hyyrö's bit-vector
 * algorithm (2003): one column of the distance table per character of `b`, held as bits of
 * vertical differences, so a comparison costs a few integer operations per character of `b`
 * instead of a row of table cells. -1 when it does not apply: `a` longer than WORD, or holding a
 * code past ASCII (the position table is indexed by code; `b` may hold any).
 */
function bitParallelDistance(a: string, b: string): number {
  const m = a.length;
  if (m > WORD) return -1;
  if (m === 0) return b.length;
  for (let i = 0; i < m; i++) {
    const code = a.charCodeAt(i);
    if (code >= TABLE_CODES) {
      for (let k = 0; k < i; k++) POSITIONS[a.charCodeAt(k)] = 0;
      return -1;
    }
    POSITIONS[code] = (POSITIONS[code] as number) | (1 << i);
  }
  const last = 1 << (m - 1);
  // The column's vertical differences (bit i set: cell i+1 is cell i plus 1, or minus 1), the
  // diagonal steps that cost nothing, the previous column's matches (a swap of two neighbours
  // reads them), and the bottom cell: the distance of `a` to the prefix of `b` read so far.
  let upPlus = -1;
  let upMinus = 0;
  let free = 0;
  let matchedBefore = 0;
  let distance = m;
  for (let j = 0; j < b.length; j++) {
    const code = b.charCodeAt(j);
    const matched = code < TABLE_CODES ? (POSITIONS[code] as number) : 0;
    const swapped = ((~free & matched) << 1) & matchedBefore;
    // The sum can pass 32 bits: `^` takes its low 32, and the carries run only upwards.
    free = (((matched & upPlus) + upPlus) ^ upPlus) | matched | upMinus | swapped;
    // The horizontal differences (this column against the one before), row by row.
    let acrossPlus = upMinus | ~(free | upPlus);
    let acrossMinus = free & upPlus;
    if (acrossPlus & last) distance++;
    else if (acrossMinus & last) distance--;
    acrossPlus = (acrossPlus << 1) | 1;
    acrossMinus <<= 1;
    upPlus = acrossMinus | ~(free | acrossPlus);
    upMinus = acrossPlus & free;
    matchedBefore = matched;
  }
  for (let i = 0; i < m; i++) POSITIONS[a.charCodeAt(i)] = 0;
  return distance;
}

/** Longest text compared: longer ones are never within reach (see MAX_NAME_LOOKED_UP). */
const MAX_COMPARED = MAX_NAME_LOOKED_UP + MAX_EDITS + 1;
// Three rows of the distance table, reused: a comparison allocates nothing.
const ROW_A = new Int32Array(MAX_COMPARED + 1);
const ROW_B = new Int32Array(MAX_COMPARED + 1);
const ROW_C = new Int32Array(MAX_COMPARED + 1);

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`; texts past MAX_COMPARED count as far apart. */
export function editDistance(a: string, b: string): number {
  // A band as wide as the longer text is the whole table: the distance itself.
  return editsWithin(a, b, Math.max(a.length, b.length));
}
