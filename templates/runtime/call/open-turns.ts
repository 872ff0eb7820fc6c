// The chain store's open turns: their order (least recently put first) and their lookup by key.
//
// The order is a ring of places, in an array of the turns and beside it a typed array of the time
// each was put. A turn put again leaves a hole at its old place and takes the newest; the oldest
// is taken from the ring's head, and the time it was put read from the typed array. Eviction, one
// turn per failed call in a full store (10,000 open turns), reads both arrays in order, where the
// processor fetches ahead: a list linked through the turns read the next-oldest turn, cold, to
// unlink the oldest (bench/README.md, "Eleventh session").
//
// The lookup is an open-addressed table (linear probing, at most half full) of each key's 32-bit
// hash in one typed array and the turn's place in the order in another. Most lookups in a full
// store miss (a new turn): a miss reads one run of neighbouring hashes, one cache line, and a
// key string is read only when a whole hash matches. An evicted turn's entry is not taken out
// of the table (its slots were last touched 10,000 calls ago, cold): its place is now behind the
// ring's head, which marks it stale, never found and never matched. Stale entries are dropped
// in bulk, when the table would need to grow, by a pass over the two typed arrays (no turn read).
// The table holds places, not turns: an evicted turn is referenced by nothing of the store's.
//
// The table decides nothing: a key is found only when its string equals the turn's own. Against
// chosen keys (a caller's turn ids) the hash is seeded per process (turn-hash.ts), and an
// insertion that probes unusually far draws a new seed and rehashes.
import { type KeyHash, randomSeed, seededHash } from "./turn-hash.ts";

/** What the open turns hold: found by its `key`; the other fields are the store's own. */
export interface Ordered {
  readonly key: string;
  /** The key's hash under the table's seed, written when it is indexed (a removal finds its slot by it). */
  indexHash: number;
  /** Its place in the order (the ring's count of places handed out), or -1 when not in the order. */
  orderAt: number;
  /** Whether the table finds it under its key: false once another turn of its key was put over it. */
  indexed: boolean;
}

/** With at most half the slots full, a probe this long is all but impossible unless the keys were chosen. */
const LONG_PROBE = 48;
const FIRST_CAPACITY = 16;
/** Places are counted in 31-bit integers: before they would pass this, the ring is renumbered from 0. */
const LAST_PLACE = 2 ** 30;

export class OpenTurns<Value extends Ordered> {
  // The order: places `#head` (the oldest, or a hole) to `#tail` (the next to hand out), place
  // `p` at `p & #ringMask`; a hole is undefined.
  #ring: (Value | undefined)[] = new Array<Value | undefined>(FIRST_CAPACITY).fill(undefined);
  #putAt = new Float64Array(FIRST_CAPACITY);
  #ringMask = FIRST_CAPACITY - 1;
  #head = 0;
  #tail = 0;
  /** Turns in the order (places that are not holes). */
  #ordered = 0;
  // The table: each slot's hash (0: empty) and its turn's place. An entry whose place is behind
  // `#head` is stale (its turn was evicted).
  #hashes = new Int32Array(FIRST_CAPACITY);
  #places = new Int32Array(FIRST_CAPACITY);
  #mask = FIRST_CAPACITY - 1;
  /** Slots taken, stale entries included. */
  #used = 0;
  /** Turns the table finds. */
  #size = 0;
  #seed: number;
  readonly #hash: KeyHash;
  /** Seeds drawn so far (the first included): a test's window on the rehash against chosen keys. */
  seeds = 1;

  readonly #lastPlace: number;

  /**
   * `hash`, `lastPlace`: the tests' seams (a hash that collides on purpose, places renumbered
   * early); production uses `seededHash` and 2^30.
   */
  constructor(hash: KeyHash = seededHash, seed: number = randomSeed(), lastPlace: number = LAST_PLACE) {
    this.#hash = hash;
    this.#seed = seed;
    this.#lastPlace = lastPlace;
  }

  /** Turns found by key (a turn another of its key was put over is in the order, not counted). */
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
        const place = this.#places[slot] as number;
        if (place >= this.#head) {
          const value = this.#ring[place & this.#ringMask] as Value;
          if (value.key === key) return value;
        }
      }
    }
  }

  /**
   * Puts `value` at the newest end of the order (out of its old place, if it had one), put at
   * `at`, and makes it the turn found under its key (in place of any other turn of the key).
   */
  push(value: Value, at: number): void {
    if (this.#tail - this.#head > this.#ringMask || this.#tail >= this.#lastPlace) this.#makeRoom();
    const previous = value.orderAt;
    const place = this.#tail++;
    this.#ring[place & this.#ringMask] = value;
    this.#putAt[place & this.#ringMask] = at;
    if (previous >= 0) this.#ring[previous & this.#ringMask] = undefined;
    else this.#ordered++;
    value.orderAt = place;
    this.#index(value, place, value.indexed ? previous : -1);
  }

  /** The oldest turn in the order, if any (then `oldestAt` is the time it was put). */
  oldest(): Value | undefined {
    const ring = this.#ring;
    const mask = this.#ringMask;
    while (this.#head < this.#tail) {
      const value = ring[this.#head & mask];
      if (value !== undefined) return value;
      this.#head++;
    }
    return undefined;
  }

  /** When the turn `oldest()` returned was put. */
  get oldestAt(): number {
    return this.#putAt[this.#head & this.#ringMask] as number;
  }

  /** Takes out the oldest turn (the one `oldest()` returns), if any: its table entry goes stale, no slot touched. */
  shift(): void {
    const value = this.oldest();
    if (value === undefined) return;
    this.#ring[this.#head & this.#ringMask] = undefined;
    this.#head++;
    this.#ordered--;
    value.orderAt = -1;
    if (value.indexed) {
      value.indexed = false;
      this.#size--;
    }
  }

  /** Takes `value` out of the order and the table, wherever it is (does nothing when it is in neither). */
  remove(value: Value): void {
    const place = value.orderAt;
    if (place < 0) return;
    if (value.indexed) {
      this.#unindex(value.indexHash, place);
      value.indexed = false;
      this.#size--;
    }
    this.#ring[place & this.#ringMask] = undefined;
    this.#ordered--;
    value.orderAt = -1;
  }

  /** Makes `value`, now at `place`, the turn the table finds under its key; `previous`: its own entry's place, if it has one. */
  #index(value: Value, place: number, previous: number): void {
    if ((this.#used + 1) * 2 > this.#hashes.length) {
      // Drop the stale entries; grow when the live ones would fill a quarter of the table.
      const grow = (this.#size + 1) * 4 > this.#hashes.length;
      this.#rebuild(grow ? this.#hashes.length * 2 : this.#hashes.length, this.#seed, this.#head);
    }
    if (this.#place(value, place, previous) > LONG_PROBE) {
      // Only keys chosen to collide under this seed probe this far: a new seed scatters them.
      this.seeds++;
      this.#rebuild(this.#hashes.length, randomSeed(), this.#head);
    }
  }

  /** The table entry for `value` at `place`; returns how far from its hash's slot it is. */
  #place(value: Value, place: number, previous: number): number {
    const hashes = this.#hashes;
    const places = this.#places;
    const mask = this.#mask;
    const hash = this.#hashOf(value.key);
    const home = hash & mask;
    for (let slot = home; ; slot = (slot + 1) & mask) {
      const found = hashes[slot];
      if (found === 0) {
        hashes[slot] = hash;
        places[slot] = place;
        value.indexHash = hash;
        value.indexed = true;
        this.#used++;
        this.#size++;
        return (slot - home) & mask;
      }
      if (found === hash) {
        const at = places[slot] as number;
        // A live entry (not behind the head) is its turn's place: `value`'s own, or another turn's.
        const other = at < this.#head ? undefined : at === previous ? value : (this.#ring[at & this.#ringMask] as Value);
        if (other !== undefined && other.key === value.key) {
          if (other !== value) other.indexed = false; // in the order still, found no longer
          places[slot] = place;
          value.indexHash = hash;
          value.indexed = true;
          return (slot - home) & mask;
        }
      }
    }
  }

  /** Removes the live entry of hash `hash` at `place`. */
  #unindex(hash: number, place: number): void {
    const hashes = this.#hashes;
    const places = this.#places;
    const mask = this.#mask;
    let slot = hash & mask;
    while (hashes[slot] !== hash || places[slot] !== place) {
      if (hashes[slot] === 0) return; // not in the table (only a defect gets here)
      slot = (slot + 1) & mask;
    }
    // Backward shift: each later entry of the run that may live in the freed slot (its own slot is
    // not between the freed one and where it sits) moves into it, so no probe ever stops early.
    for (let next = (slot + 1) & mask; hashes[next] !== 0; next = (next + 1) & mask) {
      const home = (hashes[next] as number) & mask;
      if (((next - home) & mask) >= ((next - slot) & mask)) {
        hashes[slot] = hashes[next] as number;
        places[slot] = places[next] as number;
        slot = next;
      }
    }
    hashes[slot] = 0;
    this.#used--;
  }

  /**
   * A new table of `capacity` slots holding the live entries only. Under the same seed the
   * stored hashes serve (no turn is read); under a new one each live turn's key is hashed
   * again. `head`: entries with a place behind it are stale. `renumbered`: each old place's new
   * one, when the ring was renumbered.
   */
  #rebuild(capacity: number, seed: number, head: number, renumbered?: (place: number) => number): void {
    const [hashes, places] = [this.#hashes, this.#places];
    const rehash = seed !== this.#seed;
    this.#hashes = new Int32Array(capacity);
    this.#places = new Int32Array(capacity);
    this.#mask = capacity - 1;
    this.#seed = seed;
    this.#used = 0;
    const mask = this.#mask;
    for (let slot = 0; slot < hashes.length; slot++) {
      const old = places[slot] as number;
      if (hashes[slot] === 0 || old < head) continue;
      let hash = hashes[slot] as number;
      if (rehash) {
        const value = this.#ring[old & this.#ringMask] as Value;
        hash = this.#hashOf(value.key);
        value.indexHash = hash;
      }
      let to = hash & mask;
      while (this.#hashes[to] !== 0) to = (to + 1) & mask;
      this.#hashes[to] = hash;
      this.#places[to] = renumbered === undefined ? old : renumbered(old);
      this.#used++;
    }
  }

  /**
   * Room for one more place: a ring with at least half its places holes (or places about to pass
   * 31 bits) is renumbered from 0 without them, its table with it; a fuller one doubles.
   */
  #makeRoom(): void {
    const [ring, putAt, mask, head, tail] = [this.#ring, this.#putAt, this.#ringMask, this.#head, this.#tail];
    const grow = (this.#ordered + 1) * 2 > ring.length;
    const capacity = grow ? ring.length * 2 : ring.length;
    this.#ring = new Array<Value | undefined>(capacity).fill(undefined);
    this.#putAt = new Float64Array(capacity);
    this.#ringMask = capacity - 1;
    if (grow && tail < this.#lastPlace) {
      // Places keep their numbers: the table stays as it is.
      for (let place = head; place < tail; place++) {
        this.#ring[place & this.#ringMask] = ring[place & mask];
        this.#putAt[place & this.#ringMask] = putAt[place & mask] as number;
      }
      return;
    }
    const next = new Int32Array(tail - head);
    let to = 0;
    for (let place = head; place < tail; place++) {
      const value = ring[place & mask];
      if (value === undefined) continue;
      next[place - head] = to;
      this.#ring[to] = value;
      this.#putAt[to] = putAt[place & mask] as number;
      value.orderAt = to++;
    }
    this.#head = 0;
    this.#tail = to;
    this.#rebuild(this.#hashes.length, this.#seed, head, (place) => next[place - head] as number);
  }
}
