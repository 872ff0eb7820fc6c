// `uniqueItems` for items that are not plain scalars (objects, arrays, untyped, unions). ajv
// compares every pair, which is quadratic: 84,000 small objects took minutes. Here each item gets
// a structural hash (object keys in any order), items are bucketed by it, and only items in the
// same bucket are compared with ajv-runtime's `equal`, which decides: time linear in the array's
// size. Strings are hashed by the engine (a Map numbers each distinct string), so no text is built
// per item. Hash collisions an attacker could arrange are bounded: past a few comparisons per
// item the check starts again with canonical texts (exact, no comparisons; slower, still linear).
// Short arrays keep the pairwise loop, which is cheaper for them. The verdict and the reported
// pair are ajv's: the largest `i` with an equal item before it, and the largest such `j`.
import { equal } from "./ajv-runtime.ts";

/** Up to this length the pairwise comparison (at most 66 pairs) is cheaper than hashing. */
const PAIRWISE_UP_TO = 12;
/** Comparisons of distinct items with equal hashes allowed per item before canonical texts take over. */
const COLLISIONS_PER_ITEM = 2;

/** The largest index whose item equals an earlier one, or -1 when all items are distinct. */
export function lastDuplicate(items: readonly unknown[]): number {
  const n = items.length;
  if (n <= PAIRWISE_UP_TO) {
    for (let i = n - 1; i > 0; i--) for (let j = i - 1; j >= 0; j--) if (equal(items[i], items[j])) return i;
    return -1;
  }
  const hashed = lastDuplicateByHash(items);
  return hashed === undefined ? lastDuplicateByText(items) : hashed;
}

/** undefined when too many distinct items shared a hash. */
function lastDuplicateByHash(items: readonly unknown[]): number | undefined {
  const strings = new Map<string, number>();
  const first = new Map<number, number>();
  let more: Map<number, number[]> | undefined;
  let budget = COLLISIONS_PER_ITEM * items.length;
  let last = -1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const h = hashOf(item, strings);
    const j = first.get(h);
    if (j === undefined) {
      first.set(h, i);
      continue;
    }
    if (equal(item, items[j])) {
      last = i;
      continue;
    }
    const others = (more ??= new Map()).get(h);
    let duplicate = false;
    for (const k of others ?? []) {
      if (equal(item, items[k])) {
        duplicate = true;
        break;
      }
    }
    if (duplicate) {
      last = i;
      continue;
    }
    budget -= 1 + (others?.length ?? 0);
    if (budget < 0) return undefined;
    if (others) others.push(i);
    else more.set(h, [i]);
  }
  return last;
}

/** The same answer from canonical texts: the fallback when hashes collide too often (exported for its test). */
export function lastDuplicateByText(items: readonly unknown[]): number {
  const seen = new Set<string>();
  let last = -1;
  for (let i = 0; i < items.length; i++) {
    const key = canonical(items[i]);
    if (seen.has(key)) last = i;
    else seen.add(key);
  }
  return last;
}

const FLOAT = new Float64Array(1);
const WORDS = new Int32Array(FLOAT.buffer);

/** murmur3's finaliser: spreads every input bit over the 32-bit result. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A 32-bit hash equal for items `equal` calls equal: objects hash their entries commutatively. */
function hashOf(value: unknown, strings: Map<string, number>): number {
  switch (typeof value) {
    case "string": {
      let id = strings.get(value);
      if (id === undefined) strings.set(value, (id = strings.size));
      return mix(id ^ 0x5bd1e995);
    }
    case "number": {
      if ((value | 0) === value) return mix(value ^ 0x27d4eb2f); // -0 | 0 is 0: 0 and -0 are equal
      FLOAT[0] = value;
      return mix((WORDS[0] as number) ^ mix(WORDS[1] as number));
    }
    case "boolean":
      return value ? 0x1b873593 : 0x0e6546b6;
    case "object":
      break;
    default:
      return 0x7f4a7c15;
  }
  if (value === null) return 0x3c6ef372;
  if (Array.isArray(value)) {
    let h = 0x6a09e667 ^ value.length;
    for (let i = 0; i < value.length; i++) h = mix(Math.imul(h, 31) + hashOf(value[i], strings));
    return h;
  }
  let h = 0x510e527f;
  for (const key in value) h = (h + mix(hashOf(key, strings) + Math.imul(hashOf((value as Record<string, unknown>)[key], strings), 0x9e3779b1))) | 0;
  return mix(h);
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
