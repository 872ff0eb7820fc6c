// Step 1: syntactic classification, limits before parsing, and what JSON.parse would change silently.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, parseArguments } from "../../templates/runtime/parse/parse.ts";
import { SYNTAX_RULES } from "../../templates/runtime/parse/syntax-scan.ts";

function problem(raw: unknown, finishReason?: string, limits = DEFAULT_LIMITS): { rule: string; path: string; message: string; truncated: boolean } {
  const result = parseArguments(raw, finishReason, limits);
  if (result.ok) throw new Error(`expected a failure for ${String(raw)}`);
  const first = result.errors[0];
  if (!first) throw new Error("no error");
  return { ...first, truncated: result.truncated };
}

describe("syntactic classification", () => {
  it("has exactly the classes the README lists", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const list = /JSON is classified \(([^)]*)\)/.exec(readme)?.[1] ?? "";
    expect([...list.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]).sort()).toEqual([...SYNTAX_RULES].sort());
  });

  it.each([
    ['{"amount": 12, "line_items": [{"sku": "A', "truncated", "/line_items/0/sku", 40],
    ['{"amount": 12, "line_items": [', "truncated", "/line_items/0", 30],
    ['{"amount": 1', "truncated", "/amount", undefined],
    ['{"amount": 12', "truncated", "/amount", 13],
    ['{"amount": 12 ', "truncated", "", 14],
    ['{"paid": tr', "truncated", "/paid", 11],
    ['{"amount"', "truncated", "", 9],
    ["{", "truncated", "", 1],
    ["{'amount': 12}", "single_quotes", "", 1],
    ["{\"currency\": 'EUR'}", "single_quotes", "/currency", 13],
    ['{"amount": 12,}', "trailing_comma", "", 13],
    ['{"items": [1, 2,]}', "trailing_comma", "/items", 15],
    ['```json\n{"amount": 12}\n```', "code_fence", "", 0],
    ['  ```\n{"amount": 12}\n```', "code_fence", "", 2],
    ['{"amount": 12} ```', "code_fence", "", 15],
    ['{"amount": 12 // twelve\n}', "comment", "", 14],
    ['{/* note */ "amount": 12}', "comment", "", 1],
    ['{"amount": NaN}', "invalid_json", "/amount", 11],
    ["{amount: 12}", "invalid_json", "", 1],
    ['{"amount": 12} and more', "text_around_json", "", 15],
    ['Sure: {"amount": 12}', "text_around_json", "", 0],
    ['  Here are the arguments {"amount": 12}', "text_around_json", "", 2],
    ['{"amount": 01}', "invalid_json", "/amount", 11],
    ["", "invalid_json", "", 0],
    ["amount=12", "invalid_json", "", 0],
  ] as const)("%j is %s at %j", (raw, rule, path, offset) => {
    const found = problem(raw);
    expect(found.rule).toBe(rule);
    expect(found.path).toBe(path);
    if (offset !== undefined) expect(found.message).toContain(`at character ${offset}`);
    expect(found.truncated).toBe(rule === "truncated");
  });

  it("names Python's True, False and None and says how JSON writes them", () => {
    for (const [raw, word, path] of [
      ['{"paid": True}', "True", "/paid"],
      ['{"items": [1, None]}', "None", "/items/1"],
      ['{"a": "True", "b": False}', "False", "/b"],
    ] as const) {
      const found = problem(raw);
      expect(found.rule).toBe("invalid_json");
      expect(found.path).toBe(path);
      expect(found.message).toContain(`found Python's ${word}`);
      expect(found.message).toMatch(/JSON writes its literals in lower case: write true, false and null/);
    }
    // Another word stays unquoted text, with no text fix for it.
    expect(problem('{"a": yes}').message).not.toMatch(/literals/);
  });

  it("never completes truncated text and says to send a shorter call", () => {
    const found = problem('{"memo": "a very long');
    expect(found.message).toMatch(/shorter/);
    expect(found.message).not.toContain('"a very long"');
  });

  it.each(["length", "max_tokens", "MAX_TOKENS"])("treats finish reason %s as truncation even when the text parses", (reason) => {
    const found = problem('{"amount": 12}', reason);
    expect(found).toMatchObject({ rule: "truncated", truncated: true });
  });

  it("lets finish reason mark a syntax error as truncation", () => {
    expect(problem('{"a": 1,}', "length")).toMatchObject({ rule: "truncated", truncated: true });
    expect(parseArguments('{"a": 1}', "stop", DEFAULT_LIMITS).ok).toBe(true);
  });
});

describe("what JSON.parse changes silently", () => {
  it.each([
    ['{"amount": 1e400}', "number_overflow", "/amount"],
    ['{"amount": -1e400}', "number_overflow", "/amount"],
    ['{"id": 9007199254740993}', "integer_precision", "/id"],
    ['{"ids": [1, 9007199254740993]}', "integer_precision", "/ids/1"],
    ['{"id": 9007199254740993.0}', "integer_precision", "/id"],
    ['{"id": 90071992547409930e-1}', "integer_precision", "/id"],
    ['{"id": 12345678901234567890}', "integer_precision", "/id"],
    ['{"name": "\\ud800"}', "lone_surrogate", "/name"],
    ['{"name": "x\\uDC00y"}', "lone_surrogate", "/name"],
    ['{"\\ud800": 1}', "lone_surrogate", "/\ud800"],
    ['{"name": "\ud800"}', "lone_surrogate", "/name"],
    ['{"amount": 1, "amount": 2}', "duplicate_key", "/amount"],
    ['{"a": {"b": 1, "c": 2, "b" : 3}}', "duplicate_key", "/a/b"],
    ['{"list": [{"k": 1}, {"k": 1, "k": 2}]}', "duplicate_key", "/list/1/k"],
    ['{"a\\u0062": 1, "ab": 2}', "duplicate_key", "/ab"],
    // A key ending in an escaped backslash ends in an unescaped quote: still a key token.
    ['{"a\\\\": 1, "a\\\\": 2}', "duplicate_key", "/a\\"],
    ['{"s": "\\":\\":", "k": 1, "k": 2}', "duplicate_key", "/k"],
  ] as const)("%j is reported as %s at %j", (raw, rule, path) => {
    const found = problem(raw);
    expect(found).toMatchObject({ rule, path, truncated: false });
  });

  it("passes what only looks suspicious", () => {
    for (const raw of [
      '{"note": "he said \\": x", "b": 1}',
      '{"a": {"k": 1}, "b": {"k": 1}}',
      '{"emoji": "\\ud83d\\ude00 \ud83d\ude00"}',
      '{"n": 9007199254740991, "f": 1e300, "g": 1.5e-300, "h": 9007199254740992, "i": 0.1}',
      '{"url": "https://example.com:8080/x"}',
    ]) {
      expect(parseArguments(raw, undefined, DEFAULT_LIMITS)).toMatchObject({ ok: true });
    }
  });

  it("cannot be polluted through __proto__", () => {
    const result = parseArguments('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"p": 1}}}', undefined, DEFAULT_LIMITS);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["p"]).toBeUndefined();
  });
});

describe("limits, checked before parsing", () => {
  it("refuses text over the byte limit", () => {
    expect(problem(`{"memo": "${"x".repeat(2000)}"}`, undefined, { maxBytes: 1000, maxDepth: 64 })).toMatchObject({ rule: "too_large" });
    expect(problem(`{"memo": "${"x".repeat(1024 * 1024)}"}`)).toMatchObject({ rule: "too_large" });
  });

  it("refuses nesting past the depth limit, counting only brackets outside strings", () => {
    const deep = (n: number): string => "[".repeat(n) + "]".repeat(n);
    expect(parseArguments(deep(64), undefined, DEFAULT_LIMITS).ok).toBe(true);
    expect(problem(deep(65))).toMatchObject({ rule: "too_deep" });
    expect(problem("[".repeat(500_000))).toMatchObject({ rule: "too_deep" });
    expect(parseArguments(`{"s": "${"[".repeat(100)}"}`, undefined, DEFAULT_LIMITS).ok).toBe(true);
    expect(problem('{"a": {"b": {"c": 1}}}', undefined, { maxBytes: 100, maxDepth: 2 })).toMatchObject({ rule: "too_deep" });
  });
});

describe("already-parsed values", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic["self"] = cyclic;
  class Money {
    amount = 1;
  }
  it.each([
    ["a function", { f: () => 1 }, "/f"],
    ["undefined", { u: undefined }, "/u"],
    ["a cycle", cyclic, "/self"],
    ["a class instance", { m: new Money() }, "/m"],
    ["a Date", { d: new Date(0) }, "/d"],
    ["a Map", { m: new Map() }, "/m"],
    ["NaN", { n: Number.NaN }, "/n"],
    ["Infinity", { n: Number.POSITIVE_INFINITY }, "/n"],
    ["a bigint", { n: 1n }, "/n"],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ["a sparse array", { a: [1, , 3] }, "/a/1"],
    ["a function under a key that needs escaping", { "a/b": [{ "c~d": () => 1 }] }, "/a~1b/0/c~0d"],
    ["undefined itself", undefined, ""],
  ])("refuses %s", (_, value, path) => {
    expect(problem(value)).toMatchObject({ rule: "not_json", path });
  });

  it("refuses a parsed value nested past the depth limit, naming where", () => {
    let value: unknown = 1;
    for (let level = 0; level < 3; level++) value = { x: value };
    expect(problem(value, undefined, { maxBytes: 1000, maxDepth: 2 })).toMatchObject({ rule: "too_deep", path: "/x/x" });
  });

  it("reads plain data like text and returns a fresh copy", () => {
    const input = { a: [1, { b: "x" }], n: null };
    const result = parseArguments(input, undefined, DEFAULT_LIMITS);
    expect(result).toMatchObject({ ok: true, value: input, text: JSON.stringify(input) });
    if (result.ok) expect(result.value).not.toBe(input);
    expect(parseArguments(Object.assign(Object.create(null), { a: 1 }), undefined, DEFAULT_LIMITS).ok).toBe(true);
  });

  it("still reports unsafe integers and lone surrogates in parsed values", () => {
    expect(problem({ id: 2 ** 53 + 2 })).toMatchObject({ rule: "integer_precision", path: "/id" });
    expect(problem({ s: "\ud800" })).toMatchObject({ rule: "lone_surrogate", path: "/s" });
  });
});
