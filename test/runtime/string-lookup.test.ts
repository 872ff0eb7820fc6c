// explain/string-lookup.ts scans a small table instead of hashing the fresh string it is asked
// for, and uses a Map past a handful of keys. Both ways must answer as a Map built from the same
// entries would, keeping a repeated key's first value (the candidate sets' `exact` table does).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StringLookup, stringSet } from "../../templates/runtime/explain/string-lookup.ts";

/** The Map the lookup stands for: first value per key. */
function firstValues(entries: readonly (readonly [string, number])[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const [key, value] of entries) if (!map.has(key)) map.set(key, value);
  return map;
}

describe("StringLookup", () => {
  it("answers as a Map of the first value per key, scanned (few keys) or hashed (many)", () => {
    const key = fc.string({ unit: fc.constantFrom("a", "b", "c", "_"), maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 20, size: "max" }), fc.array(key, { maxLength: 10 }), (entries, asked) => {
        const lookup = new StringLookup(entries);
        const map = firstValues(entries);
        expect(lookup.size).toBe(map.size);
        // Fresh strings, as the failure path asks with (a slice of a longer text is a new string).
        for (const text of [...map.keys(), ...asked]) expect(lookup.get(`#${text}`.slice(1))).toBe(map.get(text));
      }),
      { numRuns: 500 },
    );
  });

  it("finds each key of a small table and of a large one", () => {
    for (const count of [1, 3, 8, 9, 40]) {
      const entries = Array.from({ length: count }, (_, index) => [`key${index}`, index] as const);
      const lookup = new StringLookup([...entries, ["key0", -1] as const]);
      for (const [key, value] of entries) expect(lookup.get(key)).toBe(value);
      expect(lookup.get("key")).toBeUndefined();
      expect(lookup.get(`key${count}`)).toBeUndefined();
    }
  });

  it("has, as a set: the words for no value among them", () => {
    const words = stringSet(["None", "nil", "undefined"]);
    for (const word of ["None", "nil", "undefined"]) expect(words.has(`#${word}`.slice(1))).toBe(true);
    for (const word of ["none", "nill", "", "undefine"]) expect(words.has(word)).toBe(false);
  });
});
