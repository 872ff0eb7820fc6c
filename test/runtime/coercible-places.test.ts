// The coercion step's fast path (coerce/coercible-places.ts) held to its general twin: when the
// place tree finds no string at any place of the plan, applying the plan changes nothing. Values
// and plans are generated over the same few keys, so places are hit, missed, shared and nested.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyCoercions, planCoercions } from "../../templates/runtime/coerce/coerce.ts";
import { holdsCoercible, placeTree } from "../../templates/runtime/coerce/coercible-places.ts";
import type { CoercionTarget } from "../../templates/runtime/contract/tool-spec.ts";

const KEYS = ["a", "b", "0", "constructor", "__proto__"] as const;
const leaf = fc.constantFrom<unknown>(null, true, false, 0, 12.5, "7", "true", "x", "");
const document: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 3 }),
  ),
})).value;
const pattern = fc.array(fc.constantFrom("a", "b", "0", "*", "constructor"), { minLength: 1, maxLength: 3 }).map((tokens) => `/${tokens.join("/")}`);
const table = fc.dictionary(pattern, fc.constantFrom<CoercionTarget>("number", "integer", "boolean"), { minKeys: 1, maxKeys: 4 });

describe("the coercible-places tree", () => {
  it("finds a string at a place whenever applying the plan would coerce one", () => {
    fc.assert(
      fc.property(document, table, (value, coercions) => {
        const plan = planCoercions(coercions);
        const tree = placeTree(plan);
        if (tree === undefined) throw new Error("a plan with patterns has a tree");
        // Parsed like a call's arguments: `__proto__` an own key, as JSON.parse makes it.
        const fresh = JSON.parse(JSON.stringify(value)) as unknown;
        const before = JSON.stringify(fresh);
        const found = holdsCoercible(fresh, tree);
        const applied = applyCoercions(fresh, plan);
        if (!found) {
          expect(applied.records).toEqual([]);
          expect(JSON.stringify(fresh)).toBe(before);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("says yes for a string at a place, and no for a number or boolean there", () => {
    const tree = placeTree(planCoercions({ "/body/flags/*/on": "boolean", "/body/count": "integer" }));
    if (tree === undefined) throw new Error("no tree");
    expect(holdsCoercible({ body: { count: 3, flags: [{ on: true }, { on: false }] } }, tree)).toBe(false);
    expect(holdsCoercible({ body: { count: "3", flags: [] } }, tree)).toBe(true);
    expect(holdsCoercible({ body: { count: 3, flags: [{ on: true }, { on: "false" }] } }, tree)).toBe(true);
    // A string above a place is not at it.
    expect(holdsCoercible({ body: { flags: ["on"] } }, tree)).toBe(false);
    expect(placeTree(planCoercions({}))).toBeUndefined();
  });
});
