// Received strings are quoted without the serialiser where nothing needs escaping (explain/text.ts
// `quoted`); every string must still read exactly as JSON.stringify writes it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoted, shorten } from "../../templates/runtime/explain/text.ts";

describe("quoted text", () => {
  it("is JSON.stringify's, escapes and lone surrogates included", () => {
    const unit = fc.oneof(fc.constantFrom('"', "\\", "\n", "\u0000", "\u001f", "\ud800", "\udfff", "😀", "é", " "), fc.string({ maxLength: 1 }));
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 30, size: "max" }).map((units) => units.join("")),
        (text) => {
          expect(quoted(text)).toBe(JSON.stringify(text));
          const json = JSON.stringify(text);
          expect(shorten(text)).toBe(json.length <= 40 ? json : `${json.slice(0, 39)}…`);
        },
      ),
      { numRuns: 3000, seed: 25 },
    );
    expect(shorten("x".repeat(50))).toBe(`"${"x".repeat(38)}…`);
  });
});
