// The chain store's open turns (open-turns.ts) must answer exactly as the plain model does, a Map
// of keys and an array in order of last put, whatever the hash: checked under the real hash and
// under hashes that collide on purpose (so runs of probes wrap around the table, removals shift
// entries back and stale entries of evicted turns sit in the runs), over sequences that grow the
// ring, leave holes in it, renumber it and purge the table. It must also scatter keys chosen to
// collide under its seed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OpenTurns } from "../../templates/runtime/call/open-turns.ts";
import { seededHash, type KeyHash } from "../../templates/runtime/call/turn-hash.ts";

type Entry = { readonly key: string; readonly made: number; indexHash: number; orderAt: number; indexed: boolean };
const entry = (key: string, made: number): Entry => ({ key, made, indexHash: 0, orderAt: -1, indexed: false });
type Op =
  | { readonly op: "push"; readonly name: number; readonly state: number }
  | { readonly op: "get" | "remove"; readonly name: number; readonly state: number }
  | { readonly op: "shift"; readonly times: number };

const HASHES: Record<string, KeyHash> = {
  seeded: seededHash,
  // Four hashes in all: long runs, most of them sharing a slot.
  "four values": (key) => key.length & 3,
  // One slot for every key, and the same hash: each lookup compares keys all along the run.
  constant: () => 7,
  // Hashes whose low bits (the slot) collide while the hashes differ: runs that wrap the table's end.
  "same low bits": (key) => (key.charCodeAt(key.length - 1) << 8) | 15,
};

const ops = (names: number, maxLength: number): fc.Arbitrary<Op[]> =>
  fc.array(
    fc.oneof(
      { weight: 5, arbitrary: fc.record({ op: fc.constant("push" as const), name: fc.nat(names - 1), state: fc.nat(3) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constantFrom("get" as const, "remove" as const), name: fc.nat(names - 1), state: fc.nat(3) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant("shift" as const), times: fc.integer({ min: 1, max: 6 }) }) },
    ),
    // "max": lengths spread up to `maxLength` (fast-check's default keeps arrays to a few dozen steps).
    { maxLength, size: "max" },
  );

/** Runs `steps` on a fresh `OpenTurns` and on the model side by side, comparing every answer. */
function compare(steps: readonly Op[], names: number, hash: KeyHash, lastPlace?: number): void {
  const open = new OpenTurns<Entry>(hash, 12345, lastPlace);
  // The model: the keys' current turns, and every turn in the order, least recently put first.
  const found = new Map<string, Entry>();
  const order: { value: Entry; at: number }[] = [];
  // Up to four states per name (parallel calls of one turn each make one): which one an op means.
  const states = new Map<number, Entry[]>();
  let made = 0;
  let clock = 0;
  const stateOf = (name: number, state: number): Entry => {
    const made_ = states.get(name) ?? [];
    states.set(name, made_);
    if (state >= made_.length) made_.push(entry(`0\u0000turn-${name}`, made++));
    return made_[Math.min(state, made_.length - 1)] as Entry;
  };
  for (const step of steps) {
    if (step.op === "shift") {
      for (let time = 0; time < step.times; time++) {
        const oldest = order[0];
        expect(open.oldest()).toBe(oldest?.value);
        if (oldest === undefined) break;
        expect(open.oldestAt).toBe(oldest.at);
        open.shift();
        order.shift();
        if (found.get(oldest.value.key) === oldest.value) found.delete(oldest.value.key);
      }
    } else {
      const value = stateOf(step.name, step.state);
      const at = order.findIndex((each) => each.value === value);
      if (step.op === "push") {
        open.push(value, ++clock);
        if (at >= 0) order.splice(at, 1);
        order.push({ value, at: clock });
        found.set(value.key, value);
      } else if (step.op === "remove") {
        open.remove(value);
        if (at >= 0) order.splice(at, 1);
        if (found.get(value.key) === value) found.delete(value.key);
      } else expect(open.get(value.key)).toBe(found.get(value.key));
    }
    expect(open.size).toBe(found.size);
  }
  // Every key, kept or not: a removal that left a hole in a run would lose the ones after it.
  for (let name = 0; name < names; name++) {
    const key = `0\u0000turn-${name}`;
    expect(open.get(key)).toBe(found.get(key));
  }
  // And the whole order, oldest first.
  const drained: Entry[] = [];
  for (let oldest = open.oldest(); oldest !== undefined; oldest = open.oldest()) {
    drained.push(oldest);
    open.shift();
  }
  expect(drained).toEqual(order.map((each) => each.value));
  expect(open.size).toBe(0);
}

describe("the open turns", () => {
  it.each(Object.keys(HASHES))("answer as a Map and a list of last puts do, under the %s hash", (name) => {
    const hash = HASHES[name] as KeyHash;
    fc.assert(
      fc.property(ops(40, 300), (steps) => compare(steps, 40, hash)),
      { numRuns: 200, seed: 25 },
    );
  });

  it("answer the same when many names make the ring and the table grow, purge and renumber", () => {
    // 300 names: the ring grows past 256 places and the table past 512 slots; re-puts leave holes
    // that renumber the ring, shifts leave stale entries that purge the table.
    fc.assert(
      fc.property(ops(300, 1500), (steps) => compare(steps, 300, seededHash)),
      { numRuns: 40, seed: 26 },
    );
  });

  it("answer the same when places are renumbered long before 2^30", () => {
    fc.assert(
      fc.property(ops(20, 300), (steps) => compare(steps, 20, HASHES["four values"] as KeyHash, 40)),
      { numRuns: 200, seed: 27 },
    );
  });

  it("keep an evicted turn's stale entry out of every answer, and let its key be put again", () => {
    const open = new OpenTurns<Entry>(() => 5, 1);
    const [a, b] = [entry("a", 0), entry("b", 1)];
    open.push(a, 1);
    open.push(b, 2);
    open.shift(); // a: its slot stays, behind the head
    expect([open.get("a"), open.get("b"), open.size]).toEqual([undefined, b, 1]);
    const again = entry("a", 2);
    open.push(again, 3);
    expect([open.get("a"), open.size, a.indexed, again.indexed]).toEqual([again, 2, false, true]);
    open.remove(b);
    expect([open.get("a"), open.get("b"), open.oldest()]).toEqual([again, undefined, again]);
  });

  it("draws a new seed when keys chosen to collide under its seed make a long run", () => {
    // Every key hashes alike under the first seed (as keys found to collide under it would), apart under any other.
    const first = 99;
    let used = first;
    const chosen: KeyHash = (key, seed) => {
      used = seed;
      return seed === first ? 42 : seededHash(key, seed);
    };
    const open = new OpenTurns<Entry>(chosen, first);
    const keys = Array.from({ length: 500 }, (_, at) => `3\u0000flood-${at}`);
    for (const [at, key] of keys.entries()) open.push(entry(key, at), at);
    expect(open.seeds).toBeGreaterThan(1);
    open.get(keys[0] as string);
    expect(used).not.toBe(first);
    expect(keys.every((key, at) => open.get(key)?.made === at)).toBe(true);
    expect(open.get("3\u0000flood-500")).toBeUndefined();
  });

  it("keeps the seed for ordinary keys", () => {
    const open = new OpenTurns<Entry>();
    const values = Array.from({ length: 20_000 }, (_, at) => entry(`${at % 7}\u0000t${at}`, at));
    for (const [at, value] of values.entries()) open.push(value, at);
    for (let at = 0; at < 20_000; at += 2) open.remove(values[at] as Entry);
    for (let at = 0; at < 5_000; at++) open.shift();
    expect([open.size, open.seeds]).toEqual([5_000, 1]);
    expect(open.get("1\u0000t1")).toBeUndefined();
    expect(open.get(`${10_001 % 7}\u0000t10001`)?.made).toBe(10_001);
    expect(open.get("0\u0000t0")).toBeUndefined();
  });

  it("hashes every code unit, so keys that differ anywhere differ in hash", () => {
    const hashes = new Set<number>();
    for (let at = 0; at < 5000; at++) hashes.add(seededHash(`0\u0000turn-${at}`, 1));
    for (const key of ["a", "b", "ab", "ba", "\u0000a", "a\u0000"]) hashes.add(seededHash(key, 1));
    expect(hashes.size).toBe(5006);
  });
});
