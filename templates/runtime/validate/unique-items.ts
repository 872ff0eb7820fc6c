// `uniqueItems` for items that are not plain scalars (objects, arrays, untyped, unions). ajv
// compares every pair, which is quadratic: 84,000 small objects took minutes. Here each item
// gets a canonical text (object keys sorted), equal exactly when ajv-runtime's `equal` says the
// items are equal, and one Map finds the duplicates: time linear in the array's size, plus
// sorting each object's keys. Short arrays keep the pairwise loop, which is cheaper for them.
// The verdict and the reported pair are ajv's: the largest `i` with an equal item before it,
// and the largest such `j`.
import { equal } from "./ajv-runtime.ts";

/** Up to this length the pairwise comparison (at most 66 pairs) is cheaper than canonical texts. */
const PAIRWISE_UP_TO = 12;

/** The largest index whose item equals an earlier one, or -1 when all items are distinct. */
export function lastDuplicate(items: readonly unknown[]): number {
  const n = items.length;
  if (n <= PAIRWISE_UP_TO) {
    for (let i = n - 1; i > 0; i--) for (let j = i - 1; j >= 0; j--) if (equal(items[i], items[j])) return i;
    return -1;
  }
  const seen = new Set<string>();
  let last = -1;
  for (let i = 0; i < n; i++) {
    const key = canonical(items[i]);
    if (seen.has(key)) last = i;
    else seen.add(key);
  }
  return last;
}

/** The largest index before `i` whose item equals item `i` (one linear scan, on the failing path only). */
export function duplicateBefore(items: readonly unknown[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (equal(items[i], items[j])) return j;
  return -1;
}

/**
 * A text that two JSON values share exactly when `equal` holds: type-tagged scalars (`1` and
 * `"1"` differ; `0` and `-0` do not), strings and keys length-prefixed (so no text inside them
 * can imitate structure, and nothing needs escaping), arrays in order, objects by their own keys
 * in sorted order (sorted only when they are not in order already, as they usually are).
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "string") return `"${value.length}:${value}`;
    if (typeof value === "number") return Number.isNaN(value) ? "#NaN" : `#${value === 0 ? 0 : value}`;
    return String(value);
  }
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += `${canonical(value[i])},`;
    return `${text}]`;
  }
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      keys.sort();
      break;
    }
  }
  let text = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    text += `${key.length}:${key}=${canonical((value as Record<string, unknown>)[key])},`;
  }
  return `${text}}`;
}
