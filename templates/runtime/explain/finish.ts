// The list the model reads: sorted by path, without repeats, capped with a closing "and N more".
import type { ArgumentError } from "../contract/outcome.ts";
import { comparePointers } from "../json/json-pointer.ts";

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
