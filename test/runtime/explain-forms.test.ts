// The readings of a sent value that determine what was meant (issue 31): a cut-short or regional
// allowed value, an abbreviated field name, a uuid or date in another form, and values sent in
// another literal form (Python's None, a list of one, JSON text). Each offers a value only when
// exactly one reading exists.
import { describe, expect, it } from "vitest";
import { reformatted } from "../../templates/runtime/explain/format-repair.ts";
import { abbreviationOf, prefixMatch } from "../../templates/runtime/explain/prefix-match.ts";
import { literalFormAdvice } from "../../templates/runtime/explain/rules/literal-forms.ts";
import { suggestNumber } from "../../templates/runtime/explain/number-advice.ts";

describe("prefix and regional near misses", () => {
  it("reads a cut-short value as the one allowed value it starts", () => {
    expect(prefixMatch("asc", ["ascending", "descending"])).toBe("ascending");
    expect(prefixMatch("Esc", ["Escape", "Enter", "Tab"])).toBe("Escape");
    expect(prefixMatch("pt-BR", ["en", "pt", "de"])).toBe("pt");
  });

  it("offers nothing when two values fit or the text is too short", () => {
    expect(prefixMatch("des", ["description", "descending"])).toBeUndefined();
    expect(prefixMatch("as", ["ascending", "descending"])).toBeUndefined();
  });

  it("reads an abbreviated field name as the one accepted name it abbreviates", () => {
    expect(abbreviationOf("qty", ["quantity", "price"])).toBe("quantity");
    expect(abbreviationOf("lon", ["latitude", "longitude"])).toBe("longitude");
    expect(abbreviationOf("msg", ["message", "mode"])).toBe("message");
    expect(abbreviationOf("lat", ["latitude", "latency"])).toBeUndefined();
  });
});

describe("well-known formats written another way", () => {
  it("restores a uuid's dashes", () => {
    expect(reformatted("uuid", "123e4567e89b12d3a456426614174000")).toBe("123e4567-e89b-12d3-a456-426614174000");
    expect(reformatted("uuid", "{123e4567-e89b-12d3-a456-426614174000}")).toBe("123e4567-e89b-12d3-a456-426614174000");
    // The digits keep the case they were sent in (fresh-round21a.test.ts, Iceberg's upper-case keys).
    expect(reformatted("uuid", "123E4567E89B12D3A456426614174000")).toBe("123E4567-E89B-12D3-A456-426614174000");
    expect(reformatted("uuid", "urn:uuid:123E4567-E89B-12D3-A456-426614174000")).toBe("123E4567-E89B-12D3-A456-426614174000");
  });

  it("writes a date as ISO 8601 only when one reading exists", () => {
    expect(reformatted("date", "31/01/2026")).toBe("2026-01-31");
    expect(reformatted("date", "01/31/2026")).toBe("2026-01-31");
    expect(reformatted("date", "2026/01/31")).toBe("2026-01-31");
    expect(reformatted("date", "12/01/2026")).toBeUndefined();
    expect(reformatted("date", "31/02/2026")).toBeUndefined();
  });
});

describe("values sent in another literal form", () => {
  it("says what Python's None means for the field", () => {
    expect(literalFormAdvice("integer", "None", { optional: true })).toMatch(/omit it/);
    expect(literalFormAdvice("integer,null", "None", {})).toMatch(/send null$/);
    expect(literalFormAdvice("integer", "None", {})).toMatch(/ask the user/);
    expect(literalFormAdvice("string", "None", {})).toBeUndefined();
  });

  it("offers the element of a list of one, where the location's rules accept it", () => {
    expect(literalFormAdvice("string", ["a.txt"], {})).toMatch(/send "a.txt"$/);
    expect(literalFormAdvice("string", ["x"], { allowed: ["a", "b"] })).not.toMatch(/send "x"/);
    expect(literalFormAdvice("integer", [20], { range: { maximum: 10 } })).not.toMatch(/send 20/);
  });

  it("offers the value JSON text spells", () => {
    expect(literalFormAdvice("object", '{"a": 1}', {})).toMatch(/send \{"a":1\}$/);
    expect(literalFormAdvice("array", '["x"]', {})).toMatch(/send \["x"\]$/);
    expect(literalFormAdvice("array", '{"a": 1}', {})).toBeUndefined();
  });

  it("reads a number with a degree sign or a unit symbol", () => {
    expect(suggestNumber("45°")?.value).toBe("45");
    expect(suggestNumber("+7")?.value).toBe("7");
    expect(suggestNumber("12 kg")?.caution).toMatch(/kg/);
  });
});
