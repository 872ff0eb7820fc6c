// The printed look at a tool's coercion places (generator/emit/coercible-probe.ts) held to the
// runtime's look over the same places (coerce/coercible-places.ts), which the runtime property
// test holds to applying the plan: same answer on every generated value and table.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coercibleProbe } from "../../generator/emit/coercible-probe.ts";
import { planCoercions } from "../../templates/runtime/coerce/coerce.ts";
import { holdsCoercible, placeTree } from "../../templates/runtime/coerce/coercible-places.ts";
import type { CoercionTarget } from "../../templates/runtime/contract/tool-spec.ts";

// Keys a printed read must spell as a string (`private`, `a-b`, `~`, `/`) as well as plain ones.
const KEYS = ["a", "b", "0", "private", "a-b", "~", "/", "constructor", "__proto__"] as const;
const leaf = fc.constantFrom<unknown>(null, true, false, 0, 12.5, "7", "true", "x", "");
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value;
const escaped = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");
const pattern = fc.array(fc.constantFrom(...KEYS.map(escaped), "*"), { minLength: 1, maxLength: 4 }).map((tokens) => `/${tokens.join("/")}`);
const table = fc.dictionary(pattern, fc.constantFrom<CoercionTarget>("number", "integer", "boolean"), { minKeys: 1, maxKeys: 6 });

function printed(coercions: Record<string, CoercionTarget>): (value: unknown) => boolean {
  const code = coercibleProbe(coercions);
  if (code === undefined) throw new Error("a table with places prints a probe");
  return new Function(`return ${code.text};`)() as (value: unknown) => boolean;
}

describe("the printed coercion probe", () => {
  it("answers as the runtime's tree of the same places", () => {
    fc.assert(
      fc.property(table, fc.array(value, { minLength: 1, maxLength: 8 }), (coercions, values) => {
        const probe = printed(coercions);
        const tree = placeTree(planCoercions(coercions));
        if (tree === undefined) throw new Error("no tree");
        for (const sent of values) {
          const parsed = JSON.parse(JSON.stringify(sent) ?? "null") as unknown;
          expect(probe(parsed)).toBe(holdsCoercible(parsed, tree));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("prints nothing for a table without places, and reads quoted keys by their spelling", () => {
    expect(coercibleProbe({})).toBeUndefined();
    const probe = printed({ "/a-b/private/*": "integer", "/~0~1": "boolean" });
    expect(probe({ "a-b": { private: [1, "2"] } })).toBe(true);
    expect(probe({ "a-b": { private: [1, 2] } })).toBe(false);
    expect(probe({ "~/": "true" })).toBe(true);
    expect(probe({ "~/": true, private: "x" })).toBe(false);
  });
});
