// The linear uniqueItems check must give ajv's verdict and ajv's pair: the largest i with an
// equal item before it, and the largest such j (ajv's pairwise loop, reproduced here).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { equal } from "../../templates/runtime/validate/ajv-runtime.ts";
import { duplicateBefore, lastDuplicate, lastDuplicateByText } from "../../templates/runtime/validate/unique-items.ts";

function ajvPair(items: readonly unknown[]): [number, number] | undefined {
  for (let i = items.length; i--; ) for (let j = i; j--; ) if (equal(items[i], items[j])) return [i, j];
  return undefined;
}

function linearPair(items: readonly unknown[]): [number, number] | undefined {
  const i = lastDuplicate(items);
  return i === -1 ? undefined : [i, duplicateBefore(items, i)];
}

// Small alphabets make equal items (and near misses: key order, 1 vs "1", [] vs {}) frequent.
const leaf = fc.oneof(fc.constantFrom(0, -0, 1, 2, "1", "a", "", true, false, null), fc.integer({ min: -3, max: 3 }));
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "__proto__", "toString"), tie("json"), { maxKeys: 3 }),
  ),
})).json;

describe("uniqueItems in linear time", () => {
  it("finds ajv's pair on short and long arrays", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40, size: "max" }), (items) => {
        expect(linearPair(items)).toEqual(ajvPair(items));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the same answer through canonical texts, the fallback when hashes collide too often", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40, size: "max" }), (items) => {
        expect(lastDuplicateByText(items)).toBe(ajvPair(items)?.[0] ?? -1);
      }),
      { numRuns: 1000 },
    );
  });

  it("tells objects apart by keys and values, not by key order or prototype names", () => {
    const many = (extra: unknown[]): unknown[] => [...Array.from({ length: 20 }, (_, i) => ({ n: i })), ...extra];
    expect(
      lastDuplicate(
        many([
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ]),
      ),
    ).toBe(21);
    expect(lastDuplicate(many([{ a: 1 }, { a: "1" }, [1], ["1"], { "0": 1 }]))).toBe(-1);
    expect(lastDuplicate(many([JSON.parse('{"__proto__": 1}'), { toString: 1 }]))).toBe(-1);
    expect(lastDuplicate(many([JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}')]))).toBe(21);
  });
});
