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
});
