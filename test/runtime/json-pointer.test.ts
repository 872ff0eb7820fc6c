// The in-place pointer order must be exactly the token-by-token order: errors are listed to the
// model in this order, and the ledger is compared across runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparePointers, compareTokens, escapeToken, pointerTokens } from "../../templates/runtime/json/json-pointer.ts";

const token = fc.oneof(
  fc.constantFrom("a", "b", "ab", "amount", "line_items", "0", "1", "2", "10", "09", "", "~", "/", "a~b", "é"),
  fc.nat({ max: 120 }).map(String),
  fc.string({ maxLength: 4 }),
);
const pointer = fc.array(token, { maxLength: 5 }).map((tokens) => tokens.map((t) => `/${escapeToken(t)}`).join(""));

describe("comparePointers", () => {
  it("orders like compareTokens on the split pointers", () => {
    fc.assert(
      fc.property(pointer, pointer, (a, b) => Math.sign(comparePointers(a, b)) === Math.sign(compareTokens(pointerTokens(a), pointerTokens(b)))),
      { numRuns: 5000 },
    );
  });

  it("puts parents first and indices in numeric order", () => {
    const sorted = ["/items/10", "/items/2/name", "/items", "", "/items/2", "/amount", "/items/b"].sort(comparePointers);
    expect(sorted).toEqual(["", "/amount", "/items", "/items/2", "/items/2/name", "/items/10", "/items/b"]);
  });
});
