// The coercion allowlist (DESIGN rule 7): exactly two honest readings, nothing else.
import { describe, expect, it } from "vitest";
import { applyCoercions, coerceString, planCoercions } from "../../templates/runtime/coerce/coerce.ts";

describe("the allowlist", () => {
  it.each([
    ["49.90", "number", 49.9],
    [" 42 ", "number", 42],
    ["-3", "number", -3],
    ["+3.5", "number", 3.5],
    ["1e3", "number", 1000],
    ["2.5E-2", "number", 0.025],
    ["\t7\n", "integer", 7],
    ["3.0", "integer", 3],
    ["true", "boolean", true],
    [" FALSE ", "boolean", false],
    ["True", "boolean", true],
  ] as const)("reads %j as %s %j", (text, target, want) => {
    expect(coerceString(text, target)).toBe(want);
  });

  it.each([
    ["1,299.00", "number"],
    ["$5", "number"],
    ["5€", "number"],
    ["", "number"],
    [" ", "number"],
    ["1e", "number"],
    ["0x10", "number"],
    ["0b1", "number"],
    ["Infinity", "number"],
    ["-Infinity", "number"],
    ["NaN", "number"],
    ["1e400", "number"],
    ["1.", "number"],
    [".5", "number"],
    ["1 000", "number"],
    ["1_000", "number"],
    ["twelve", "number"],
    ["9007199254740993", "integer"],
    ["3.5", "integer"],
    ["yes", "boolean"],
    ["1", "boolean"],
    ["", "boolean"],
    ["on", "boolean"],
  ] as const)("rejects %j as %s", (text, target) => {
    expect(coerceString(text, target)).toBeUndefined();
  });
});

describe("applying the table", () => {
  const plan = planCoercions({ "/amount": "number", "/items/*/qty": "integer", "/a~1b": "boolean" });

  it("coerces only at the table's paths and records every change", () => {
    const doc = { amount: "10.5", note: "12", items: [{ qty: "2" }, { qty: 3 }, { qty: "2.5" }], "a/b": "true" };
    const { records: applied, omitted } = applyCoercions(doc, plan);
    expect(omitted).toBe(0);
    expect(doc).toEqual({ amount: 10.5, note: "12", items: [{ qty: 2 }, { qty: 3 }, { qty: "2.5" }], "a/b": true });
    expect(applied).toEqual([
      { path: "/amount", from: "10.5", to: 10.5, rule: "string->number" },
      { path: "/a~1b", from: "true", to: true, rule: "string->boolean" },
      { path: "/items/0/qty", from: "2", to: 2, rule: "string->integer" },
    ]);
  });

  it("names each coercion by the indices it took and the keys as escaped, under nested lists", () => {
    const nested = planCoercions({ "/rows/*/cells/*": "number", "/rows/*/x~1y~0z": "boolean", "/m~0n/*": "integer" });
    const doc = { rows: [{ cells: ["1", 2] }, { cells: [3, "4", "5"], "x/y~z": "false" }], "m~n": [7, "8"] };
    const { records } = applyCoercions(doc, nested);
    expect(records.map((record) => record.path)).toEqual(["/m~0n/1", "/rows/0/cells/0", "/rows/1/cells/1", "/rows/1/cells/2", "/rows/1/x~1y~0z"]);
    expect(doc).toEqual({ rows: [{ cells: [1, 2] }, { cells: [3, 4, 5], "x/y~z": false }], "m~n": [7, 8] });
  });

  it("ignores shapes the pattern does not fit and never adds a missing field", () => {
    const doc = { items: { 0: { qty: "2" } } };
    expect(applyCoercions(doc, plan)).toEqual({ records: [], omitted: 0 });
    expect(doc).toEqual({ items: { 0: { qty: "2" } } });
    expect(applyCoercions(null, plan)).toEqual({ records: [], omitted: 0 });
  });

  it("lists at most `keep` coercions, applies every one, and counts the rest", () => {
    const doc = { amount: "1", items: [{ qty: "1" }, { qty: "2" }, { qty: "x" }, { qty: "4" }] };
    const { records, omitted } = applyCoercions(doc, plan, undefined, 2);
    expect(records.map((record) => record.path)).toEqual(["/amount", "/items/0/qty"]);
    expect(omitted).toBe(2);
    expect(doc).toEqual({ amount: 1, items: [{ qty: 1 }, { qty: 2 }, { qty: "x" }, { qty: 4 }] });
  });
});
