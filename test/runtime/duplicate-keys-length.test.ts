// A repeated key is ruled out by length before any colon is searched (json-hazards.ts,
// `SHORTEST_MEMBER`): a compact text longer than its parsed value by exactly one lost member, the
// smallest a repeat can leave, must still be reported.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHazards } from "../../templates/runtime/parse/json-hazards.ts";

const duplicates = (text: string): string[] =>
  findHazards(text, JSON.parse(text))
    .filter((error) => error.rule === "duplicate_key")
    .map((error) => error.path);

/** JSON values whose compact text is as short as any text for them (one-digit numbers). */
const compact: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, 7),
    fc.string({ maxLength: 3 }),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 2 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("repeated keys in texts with no character to spare", () => {
  it.each([
    ['{"":0,"":0}', "/"],
    ['{"a":1,"a":2}', "/a"],
    ['[{"k":null,"k":true}]', "/0/k"],
    ['{"a":[],"b":{"c":false,"c":""}}', "/b/c"],
    ['{"x":{},"y":1,"x":{}}', "/x"],
  ])("%s repeats %s", (text, path) => {
    expect(duplicates(text)).toEqual([path]);
  });

  it("reports a member repeated in any compact text, and nothing in one without repeats", () => {
    fc.assert(
      fc.property(compact, fc.string({ maxLength: 2 }), fc.constantFrom("0", "null", '""', "{}", "[]"), (value, key, repeated) => {
        const text = JSON.stringify({ wrap: value });
        expect(duplicates(text)).toEqual([]);
        // The same member twice, the first copy lost by JSON.parse.
        const twice = `{${JSON.stringify(key)}:${repeated},${text.slice(1, -1)},${JSON.stringify(key)}:${repeated}}`;
        expect(duplicates(twice)).toContain(`/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      }),
      { numRuns: 400 },
    );
  });

  it("reports it beside numbers spelled as briefly as JSON allows, in any form", () => {
    // Each number counts as the fewest characters any spelling of it needs: overcounting one
    // would hide the repeat.
    const spellings = (n: number): string[] => {
      const forms = [JSON.stringify(n), n.toExponential(), n.toExponential().replace("e+", "e")];
      if (Number.isInteger(n)) {
        const digits = String(Math.abs(n)).replace(/0+$/, "");
        const zeros = String(Math.abs(n)).length - digits.length;
        if (zeros > 0 && digits !== "") forms.push(`${n < 0 ? "-" : ""}${digits}e${zeros}`);
      }
      for (let places = 0; places <= 20; places++) if (Number(n.toFixed(places)) === n) forms.push(n.toFixed(places));
      return forms.filter((form) => {
        try {
          return JSON.parse(form) === n;
        } catch {
          return false; // Not a JSON spelling (`1e+300` read as digits and zeros, say).
        }
      });
    };
    const numbers = fc.oneof(
      fc.integer(),
      fc.integer({ min: -999, max: 999 }),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
      fc.constantFrom(0.5, 1299.5, 499.75, 100, 1000, 1e20, 1e-7, 1e300),
    );
    fc.assert(
      fc.property(fc.array(numbers, { minLength: 1, maxLength: 4 }), (values) => {
        for (const form of values.flatMap(spellings)) {
          expect(duplicates(`{"k":0,"n":${form}}`)).toEqual([]);
          expect(duplicates(`{"k":0,"n":${form},"k":0}`)).toEqual(["/k"]);
          expect(duplicates(`[${form},{"":0,"":${form}}]`)).toEqual(["/1/"]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
