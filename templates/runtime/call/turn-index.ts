// The chain store's lookup of open turns by key: an open-addressed table (linear probing) whose
// slots hold each key's 32-bit hash in a typed array, beside the turns themselves. A full store
// (10,000 open chains) is looked up on every failed call, and most lookups miss (a new turn):
// a Map that size misses the cache several times per lookup (its bucket, then each entry in the
// bucket's chain and that entry's key string), while here a miss reads a run of neighbouring
// hashes, one cache line, and a key string is read only when its whole hash matches.
//
// The index decides nothing: a key is found only when its string equals the one stored, so a
// poor hash costs time, never a wrong answer. Against chosen keys (a caller's turn ids), the hash
// is seeded per process with random bits, and an insertion that has to probe unusually far draws
// a new seed and rehashes, so no fixed set of keys keeps the probes long.

/** Anything the index holds: found by its `key`. */
export interface Keyed {
  readonly key: string;
  /**
   * The index's own field: the key's hash under its seed, written when the value is stored, so
   * that removing a value (a full store evicts one per failed call, long after it was last read)
   * neither reads its key string again nor compares one.
   */
  indexHash: number;
}

/** A key's hash under a seed: any 32-bit integer (0 is then made 1: 0 marks an empty slot). */
export type KeyHash = (key: string, seed: number) => number;

/**
 * FNV-1a over the UTF-16 code units, from the seed, then murmur3's finaliser so every bit of the
 * hash depends on every bit of the state (the table's slot is the hash's low bits).
 */
export const seededHash: KeyHash = (key, seed) => {
  let hash = seed ^ 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
};

/** With at most half the slots full, a probe this long is all but impossible unless the keys were chosen. */
const LONG_PROBE = 48;
const FIRST_CAPACITY = 16;

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] as number;
}

export class TurnIndex<Value extends Keyed> {
  /** Each slot's hash; 0 when the slot is empty. */
  #hashes = new Int32Array(FIRST_CAPACITY);
  #values: (Value | undefined)[] = new Array<Value | undefined>(FIRST_CAPACITY).fill(undefined);
  #mask = FIRST_CAPACITY - 1;
  #size = 0;
  #seed: number;
  readonly #hash: KeyHash;
  /** Seeds drawn so far (the first included): a test's window on the rehash against chosen keys. */
  seeds = 1;

  /** `hash`: the tests' seam (a hash that collides on purpose); production uses `seededHash`. */
  constructor(hash: KeyHash = seededHash, seed: number = randomSeed()) {
    this.#hash = hash;
    this.#seed = seed;
  }

  get size(): number {
    return this.#size;
  }

  #hashOf(key: string): number {
    return this.#hash(key, this.#seed) | 0 || 1;
  }

  get(key: string): Value | undefined {
    const hashes = this.#hashes;
    const mask = this.#mask;
    const hash = this.#hashOf(key);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const found = hashes[slot];
      if (found === 0) return undefined;
      if (found === hash) {
        const value = this.#values[slot] as Value;
        if (value.key === key) return value;
      }
    }
  }

  /** Stores `value` under its key, in place of any value stored under the same key. */
  set(value: Value): void {
    if ((this.#size + 1) * 2 > this.#hashes.length) this.#rehash(this.#hashes.length * 2, this.#seed);
    if (this.#place(value) > LONG_PROBE) {
      // Only keys chosen to collide under this seed probe this far: a new seed scatters them.
      this.seeds++;
      this.#rehash(this.#hashes.length, randomSeed());
    }
  }

  /** Puts `value` in its slot; returns how far from its hash's slot that is. */
  #place(value: Value): number {
    const hashes = this.#hashes;
    const mask = this.#mask;
    const hash = this.#hashOf(value.key);
    const home = hash & mask;
    for (let slot = home; ; slot = (slot + 1) & mask) {
      const found = hashes[slot];
      if (found === 0) {
        hashes[slot] = hash;
        this.#values[slot] = value;
        value.indexHash = hash;
        this.#size++;
        return (slot - home) & mask;
      }
      if (found === hash && (this.#values[slot] as Value).key === value.key) {
        this.#values[slot] = value;
        value.indexHash = hash;
        return (slot - home) & mask;
      }
    }
  }

  /**
   * Removes `value` itself, if stored (not another value stored under its key since); says
   * whether it was. Found by the hash it was stored with, and compared by identity.
   */
  delete(value: Value): boolean {
    const hashes = this.#hashes;
    const values = this.#values;
    const mask = this.#mask;
    const hash = value.indexHash;
    if (hash === 0) return false;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const found = hashes[slot];
      if (found === 0) return false;
      if (found === hash && values[slot] === value) break;
    }
    // Backward shift: each later entry of the run that may live in the freed slot (its own slot is
    // not between the freed one and where it sits) moves into it, so no probe ever stops early.
    for (let next = (slot + 1) & mask; hashes[next] !== 0; next = (next + 1) & mask) {
      const home = (hashes[next] as number) & mask;
      if (((next - home) & mask) >= ((next - slot) & mask)) {
        hashes[slot] = hashes[next] as number;
        values[slot] = values[next];
        slot = next;
      }
    }
    hashes[slot] = 0;
    values[slot] = undefined;
    this.#size--;
    return true;
  }

  #rehash(capacity: number, seed: number): void {
    const values = this.#values;
    this.#hashes = new Int32Array(capacity);
    this.#values = new Array<Value | undefined>(capacity).fill(undefined);
    this.#mask = capacity - 1;
    this.#size = 0;
    this.#seed = seed;
    for (const value of values) if (value !== undefined) this.#place(value);
  }
}
