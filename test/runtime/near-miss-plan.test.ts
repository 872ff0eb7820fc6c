// The near-miss search reads each hint's lists through a plan built once (explain/near-miss-plan.ts,
// candidate-set.ts): an exact match by lookup, the names grouped by length, the keys a text starts
// by binary search. Held here against the direct search the plan replaced (every name compared,
// every key scanned with `prefixMatch`), on random lists and random misspellings of their values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { candidateSet } from "../../templates/runtime/explain/candidate-set.ts";
import { normaliseNearMiss } from "../../templates/runtime/explain/near-miss.ts";
import { nearMissPlan, startOf } from "../../templates/runtime/explain/near-miss-plan.ts";
import { prefixMatch } from "../../templates/runtime/explain/prefix-match.ts";
import { closestInSet, editsWithin } from "../../templates/runtime/explain/spelling.ts";

/** The search before the plan: every name compared, in list order. */
function directClosest(key: string, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const normals = names.map(normaliseNearMiss);
  const exact = normals.indexOf(key);
  if (exact >= 0) return names[exact];
  if (key.length < 2 || key.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  let tied = false;
  names.forEach((value, index) => {
    const normal = normals[index] as string;
    const reach = Math.min(2, normal.length >> 1);
    if (Math.abs(normal.length - key.length) > reach) return;
    const distance = editsWithin(key, normal, reach);
    if (distance > reach) return;
    if (distance < bestDistance) [best, bestDistance, tied] = [value, distance, false];
    else if (distance === bestDistance && value !== best) tied = true;
  });
  return tied ? undefined : best;
}

/** Lists of short words over a small alphabet (so that many are near each other), cased and separated at random. */
const word = fc
  .tuple(fc.string({ unit: fc.constantFrom("a", "b", "c", "e", "t", "r"), minLength: 1, maxLength: 9 }), fc.boolean(), fc.constantFrom("", "-", "_", " "))
  .map(([letters, upper, separator]) => {
    const cased = upper ? letters.toUpperCase() : letters;
    return cased.length > 3 ? `${cased.slice(0, 2)}${separator}${cased.slice(2)}` : cased;
  });
const locale = fc
  .tuple(fc.constantFrom("pt", "en", "abc", "be"), fc.constantFrom("-", "_"), fc.constantFrom("BR", "us", "Latn"))
  .map((parts) => parts.join(""));
// `ab_`, `AB-`: a text cut at the separator a listed value has after its first two letters.
const received = fc.oneof(word, locale, fc.constantFrom("", " ", "a", "ab", "abc", "ab_", "AB-", "et_", "a_"));

describe("near-miss plan", () => {
  it("finds the closest name the direct comparison finds, ties included", () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), received, (names, text) => {
        const key = normaliseNearMiss(text);
        expect(closestInSet(key, candidateSet(names))).toBe(directClosest(key, names));
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("finds the one key a text starts or is a locale of, as prefixMatch over the keys does", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(word, fc.constantFrom("pt", "en", "abc", "be")), { maxLength: 30 }), received, (values, text) => {
        const nearMisses = Object.fromEntries(values.map((value) => [normaliseNearMiss(value), value]));
        const plan = nearMissPlan({ nearMisses });
        const keys = Object.keys(nearMisses);
        const key = normaliseNearMiss(text);
        expect(startOf(plan, text, key)).toBe(prefixMatch(text, keys, (normal) => normal, key));
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("is built once per hint", () => {
    const hint = { allowed: ["PR_TITLE", "COMMIT_OR_PR_TITLE"] };
    expect(nearMissPlan(hint)).toBe(nearMissPlan(hint));
    expect(nearMissPlan(hint).listed?.names).toEqual(["PR_TITLE", "COMMIT_OR_PR_TITLE"]);
  });
});
