// The chain store's index of open turns must answer exactly as a Map would, whatever the hash:
// it is checked against a Map under the real hash and under hashes that collide on purpose (so
// runs of probes wrap around the table and deletions shift entries back), and it must scatter
// keys chosen to collide under its seed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededHash, TurnIndex, type KeyHash } from "../../templates/runtime/call/turn-index.ts";

type Entry = { readonly key: string; readonly made: number; indexHash: number };
const entry = (key: string, made: number): Entry => ({ key, made, indexHash: 0 });
type Op = { readonly op: "set" | "delete" | "get"; readonly name: number };

const HASHES: Record<string, KeyHash> = {
  seeded: seededHash,
  // Four hashes in all: long runs, most of them sharing a slot.
  "four values": (key) => key.length & 3,
  // One slot for every key, and the same hash: each lookup compares keys all along the run.
  constant: () => 7,
  // Hashes whose low bits (the slot) collide while the hashes differ: runs that wrap the table's end.
  "same low bits": (key) => (key.charCodeAt(key.length - 1) << 8) | 15,
};

describe("the index of open turns", () => {
  it.each(Object.keys(HASHES))("answers as a Map does, under the %s hash", (name) => {
    const hash = HASHES[name] as KeyHash;
    fc.assert(
      fc.property(
        fc.array(fc.record({ op: fc.constantFrom("set" as const, "set" as const, "delete" as const, "get" as const), name: fc.nat(60) }), { maxLength: 300 }),
        (ops: Op[]) => {
          const index = new TurnIndex<Entry>(hash, 12345);
          const model = new Map<string, Entry>();
          let made = 0;
          for (const { op, name } of ops) {
            const key = `0\u0000turn-${name}`;
            if (op === "set") {
              const value = entry(key, made++);
              const replaced = model.get(key);
              index.set(value);
              model.set(key, value);
              // The value set over is no longer stored: removing it removes nothing.
              if (replaced !== undefined) expect(index.delete(replaced)).toBe(false);
            } else if (op === "delete") {
              const stored = model.get(key);
              expect(stored === undefined ? false : index.delete(stored)).toBe(model.delete(key));
              if (stored !== undefined) expect(index.delete(stored)).toBe(false);
            } else expect(index.get(key)).toBe(model.get(key));
            expect(index.size).toBe(model.size);
          }
          // Every key, stored or not: a deletion that left a hole in a run would lose the ones after it.
          for (let other = 0; other <= 60; other++) {
            const key = `0\u0000turn-${other}`;
            expect(index.get(key)).toBe(model.get(key));
          }
        },
      ),
      { numRuns: 200, seed: 25 },
    );
  });

  it("draws a new seed when keys chosen to collide under its seed make a long run", () => {
    // Every key hashes alike under the first seed (as keys found to collide under it would), apart under any other.
    const first = 99;
    let used = first;
    const chosen: KeyHash = (key, seed) => {
      used = seed;
      return seed === first ? 42 : seededHash(key, seed);
    };
    const index = new TurnIndex<Entry>(chosen, first);
    const keys = Array.from({ length: 500 }, (_, at) => `3\u0000flood-${at}`);
    for (const [at, key] of keys.entries()) index.set(entry(key, at));
    expect(index.seeds).toBeGreaterThan(1);
    index.get(keys[0] as string);
    expect(used).not.toBe(first);
    expect(keys.every((key, at) => index.get(key)?.made === at)).toBe(true);
    expect(index.get("3\u0000flood-500")).toBeUndefined();
  });

  it("keeps the seed for ordinary keys", () => {
    const index = new TurnIndex<Entry>();
    const values = Array.from({ length: 20_000 }, (_, at) => entry(`${at % 7}\u0000t${at}`, at));
    for (const value of values) index.set(value);
    for (let at = 0; at < 20_000; at += 2) index.delete(values[at] as Entry);
    expect([index.size, index.seeds]).toEqual([10_000, 1]);
    expect(index.get("1\u0000t1")?.made).toBe(1);
    expect(index.get("0\u0000t0")).toBeUndefined();
  });

  it("hashes every code unit, so keys that differ anywhere differ in hash", () => {
    const hashes = new Set<number>();
    for (let at = 0; at < 5000; at++) hashes.add(seededHash(`0\u0000turn-${at}`, 1));
    for (const key of ["a", "b", "ab", "ba", "\u0000a", "a\u0000"]) hashes.add(seededHash(key, 1));
    expect(hashes.size).toBe(5006);
  });
});
