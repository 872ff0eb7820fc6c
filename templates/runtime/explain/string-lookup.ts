// A read-only table keyed by strings that the failure path looks up with fresh strings: a
// received value's normal form, made by this call and never seen before. A Map (or Set) computes
// such a string's hash on its first lookup, through a call into the engine's runtime, which
// costs more than the rest of a near-miss lookup in a small table. A small table is therefore
// scanned instead: `===` on strings compares lengths first, so most keys are passed over without
// reading a character, and the answers are the Map's. Past SCANNED_KEYS the Map is used.

/** Most keys scanned rather than hashed (the near-miss tables of most enums have a handful). */
const SCANNED_KEYS = 8;

export class StringLookup<V> {
  readonly size: number;
  readonly #keys: readonly string[];
  readonly #values: readonly V[];
  readonly #map: ReadonlyMap<string, V> | undefined;

  /** `entries` in order: a key given twice keeps its first value, as `exact` tables want. */
  constructor(entries: Iterable<readonly [string, V]>) {
    const map = new Map<string, V>();
    for (const [key, value] of entries) if (!map.has(key)) map.set(key, value);
    this.size = map.size;
    this.#keys = [...map.keys()];
    this.#values = [...map.values()];
    this.#map = map.size > SCANNED_KEYS ? map : undefined;
  }

  get(key: string): V | undefined {
    if (this.#map !== undefined) return this.#map.get(key);
    const keys = this.#keys;
    for (let index = 0; index < keys.length; index++) if (keys[index] === key) return this.#values[index];
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
}

/** A set of strings as a StringLookup: `has` scans a small one (see above). */
export function stringSet(members: readonly string[]): StringLookup<true> {
  return new StringLookup(members.map((member) => [member, true] as const));
}
