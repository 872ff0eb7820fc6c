// Patterns that skip RE2 must be ones V8's backtracking engine matches in linear time, and must
// mean exactly what the RE2 translation means.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { linearRegExp, toRe2 } from "../../templates/runtime/validate/pattern.ts";
import { matchesInLinearTimeNatively } from "../../templates/runtime/validate/pattern-shape.ts";
import { growth, GROWTH_FACTOR, LINEAR_GROWTH_LIMIT } from "../helpers/growth.ts";

// Anchored sequences of single-character items whose repeats cannot hand a character to what follows.
const NATIVE = [
  "^[A-Z0-9-]{3,32}$",
  "^[a-zA-Z0-9_.-]+$",
  "^[0-9a-f]{40}$",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "^[a-z]+[0-9]*$",
  "^SKU-\\d+$",
  "^\\w+$",
  "^[^\\s]+$",
  "^v?\\d+\\.\\d+\\.\\d+$",
  "^[a-z]+",
  "^$",
  "^[^,]*,[^,]*$",
];

// Each either can backtrack heavily in V8 or is outside the narrow rule.
const RE2_ONLY = [
  "^(a+)+$", // nested repeat: exponential
  "^(b|bb)*$", // alternation under a repeat
  "^\\d+\\d$", // a repeat that can hand a digit to the next item
  "^\\d*\\d*\\d*x$", // polynomial
  "^[a-z]*a?[a-z]$", // overlap reaches past an optional item
  "^.*foo$", // `.` overlaps everything after it
  "[a-z]+x", // not anchored: every start position is tried
  "^a+?b$", // lazy
  "^a|b$", // alternation
  "^(?=a)a$", // lookahead
  "^\\bword$", // assertion
  "^\\u00e9+$", // \\u escapes are left to RE2
  "^[]a$",
  "a$",
];

describe("which patterns run natively", () => {
  it.each(NATIVE)("%s runs on V8's engine", (source) => {
    expect(matchesInLinearTimeNatively(source)).toBe(true);
  });

  it.each(RE2_ONLY)("%s stays on RE2", (source) => {
    expect(matchesInLinearTimeNatively(source)).toBe(false);
  });

  it("matches hostile inputs to native patterns in linear time", async () => {
    // For each, the input of about `n` characters that makes a repeat take the most and then fail
    // at the very end. A backtracking blow-up would take minutes at these sizes.
    const cases: [string, (n: number) => string][] = [
      ["^[a-z]+[0-9]*$", (n) => `${"a".repeat(n)}!`],
      ["^[^,]*,[^,]*$", (n) => `${"x".repeat(n / 2)},${"y".repeat(n / 2)},`],
      ["^[a-zA-Z0-9_.-]+$", (n) => `${"a.".repeat(n / 2)}!`],
    ];
    for (const [source, hostile] of cases) {
      const pattern = linearRegExp(source, "u");
      expect(pattern.test(hostile(200_000))).toBe(false);
      // Eight times the input costs about eight times as much; a quadratic engine, sixty-four.
      const inputs = new Map([200_000, GROWTH_FACTOR * 200_000].map((n) => [n, hostile(n)]));
      expect(await growth((n) => pattern.test(inputs.get(n) as string), 200_000)).toBeLessThan(LINEAR_GROWTH_LIMIT);
    }
  });

  it("means what the RE2 translation means, on arbitrary strings", () => {
    const alphabet = fc.constantFrom("a", "z", "A", "0", "9", "-", "_", ".", ",", " ", "\n", "é", "😀", "x", "f");
    const text = fc.array(alphabet, { maxLength: 12, size: "max" }).map((chars) => chars.join(""));
    for (const source of NATIVE) {
      const native = linearRegExp(source, "u");
      const re2 = RE2JS.compile(toRe2(source));
      fc.assert(
        fc.property(text, (input) => native.test(input) === re2.test(input)),
        { numRuns: 300 },
      );
    }
  });

  it("translates \\S inside a class (as in [\\s\\S]) to the complement of ECMAScript's \\s", () => {
    const alphabet = fc.constantFrom("a", "é", "😀", ",", " ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "{", "}");
    const text = fc.array(alphabet, { maxLength: 10 }).map((chars) => chars.join(""));
    for (const source of ["^[\\s\\S]*$", "^[\\S]+$", "^[^\\S]+$", "^[\\S,]*$", "\\{[\\s\\S]*?\\}", "^[a\\S]$"]) {
      const native = new RegExp(source, "u");
      const re2 = RE2JS.compile(toRe2(source));
      fc.assert(
        fc.property(text, (input) => native.test(input) === re2.test(input)),
        { numRuns: 400 },
      );
    }
  });
});
