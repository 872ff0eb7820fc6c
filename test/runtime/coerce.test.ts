// The coercion allowlist (DESIGN rule 7): exactly two honest readings, nothing else.
import fc from "fast-check";
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

  it("gives what a pattern-by-pattern walk gives, on any document and table", () => {
    // The plain reading of the table: each pattern in sorted order, every node it matches, in
    // index order. The plan's shortcuts (pointers written only for coercions, one lookup of an
    // object shared by several fields) must not change a record, its order, or the document.
    const plain = (document: unknown, table: Record<string, "number" | "integer" | "boolean">) => {
      const records: { path: string; from: string; to: unknown; rule: string }[] = [];
      const walk = (node: unknown, tokens: readonly string[], path: string, target: "number" | "integer" | "boolean"): void => {
        if (node === null || typeof node !== "object") return;
        const [token, ...rest] = tokens;
        const keys = token === "*" ? (Array.isArray(node) ? node.map((_, index) => index) : []) : Object.hasOwn(node, token as string) ? [token as string] : [];
        for (const key of keys) {
          const value = (node as Record<string | number, unknown>)[key];
          const at = `${path}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
          if (rest.length > 0) walk(value, rest, at, target);
          else if (typeof value === "string") {
            const to = coerceString(value, target);
            if (to === undefined) continue;
            (node as Record<string | number, unknown>)[key] = to;
            records.push({ path: at, from: value, to, rule: `string->${target}` });
          }
        }
      };
      for (const pattern of Object.keys(table).sort()) {
        const tokens = pattern
          .split("/")
          .slice(1)
          .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
        walk(document, tokens, "", table[pattern] as "number" | "integer" | "boolean");
      }
      return records;
    };
    const key = fc.constantFrom("a", "b", "c~d", "e/f");
    const leaf = fc.oneof(fc.constantFrom("1", "2.5", "true", "x", "false"), fc.integer(), fc.boolean());
    const doc = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(key, tie("node"), { maxKeys: 4 })),
    })).node;
    const pointer = fc
      .array(fc.oneof(key, fc.constant("*")), { minLength: 1, maxLength: 3 })
      .map((tokens) => tokens.map((t) => `/${t === "*" ? t : t.replaceAll("~", "~0").replaceAll("/", "~1")}`).join(""));
    const table = fc.dictionary(pointer, fc.constantFrom("number" as const, "integer" as const, "boolean" as const), { maxKeys: 6 });
    fc.assert(
      fc.property(doc, table, (document, coercions) => {
        const mine = structuredClone(document);
        const theirs = structuredClone(document);
        expect(applyCoercions(mine, planCoercions(coercions)).records).toEqual(plain(theirs, coercions));
        expect(mine).toEqual(theirs);
      }),
      { numRuns: 2000, seed: 25 },
    );
  });
});
