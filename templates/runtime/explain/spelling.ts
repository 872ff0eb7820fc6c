// Near misses further than a case or separator change (`jpg` for `jpeg`, `opened` for `open`,
// `canceled` for `cancelled`). The generator writes, per location, every allowed value's normal
// form with at most one character deleted (see generator/emit/spelling-table.ts); here the
// received text's normal form with up to two deleted is looked up, which finds every value
// within two edits of it, and the closest wins. A tie suggests nothing: a guess the model cannot
// tell from the right one teaches nothing.
import { normaliseNearMiss } from "./near-miss.ts";

type Spellings = Readonly<Record<string, string | readonly string[]>>;

/** Received texts longer than this are not looked up (the deletions grow with the square). */
const MAX_LOOKED_UP = 40;
/** Most edits between the received text and a suggestion. */
const MAX_EDITS = 2;

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
  if (names === undefined || names.length === 0) return undefined;
  const key = normaliseNearMiss(text);
  return key.length < 2 || key.length > MAX_LOOKED_UP ? undefined : closest(key, names);
}

function closest(key: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  let tied = false;
  for (const value of candidates) {
    const normal = normaliseNearMiss(value);
    const distance = editDistance(key, normal);
    // Two edits in a four-letter word are half of it: allowed (`opened`/`open`); more is a different word.
    if (distance > MAX_EDITS || distance * 2 > normal.length) continue;
    if (distance < bestDistance) [best, bestDistance, tied] = [value, distance, false];
    else if (distance === bestDistance && value !== best) tied = true;
  }
  return tied ? undefined : best;
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
