// The in-place pointer order must be exactly the token-by-token order: errors are listed to the
// model in this order, and the ledger is compared across runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparePointers, compareTokens, escapeToken, pointerTokens, valueAt } from "../../templates/runtime/json/json-pointer.ts";

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

describe("valueAt", () => {
  // valueAt keeps the tokens of recent pointers: the answer must still be the document's own.
  const walk = (document: unknown, tokens: readonly string[]): unknown => {
    let node = document;
    for (const token of tokens) {
      if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    }
    return node;
  };
  const json = fc
    .jsonValue({ maxDepth: 3 })
    .map((value) => JSON.parse(JSON.stringify({ "a/b": value, "~": [value], __proto__: 1, a: { b: [value] } })) as unknown);

  it("reads the same as a walk over the split pointer, however often a pointer repeats", () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 4 }), fc.array(pointer, { minLength: 1, maxLength: 12 }), (documents, pointers) => {
        for (const document of documents) for (const at of [...pointers, ...pointers]) expect(valueAt(document, at)).toBe(walk(document, pointerTokens(at)));
      }),
      { numRuns: 500 },
    );
  });

  it("reads own properties only, whatever was read before", () => {
    expect(valueAt({ currency: "eur" }, "/currency")).toBe("eur");
    expect(valueAt({ other: 1 }, "/currency")).toBeUndefined();
    expect(valueAt({}, "/toString")).toBeUndefined();
    expect(valueAt(JSON.parse('{"__proto__": {"x": 2}}'), "/__proto__/x")).toBe(2);
    expect(valueAt({ a: [5, 6] }, "/a/1")).toBe(6);
    expect(valueAt({ "a/b": 7, "~": 8 }, "/a~1b")).toBe(7);
    expect(valueAt({ "a/b": 7, "~": 8 }, "/~0")).toBe(8);
  });
});
