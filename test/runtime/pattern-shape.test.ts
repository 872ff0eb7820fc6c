// Patterns that skip RE2 must be ones V8's backtracking engine matches in linear time, and must
// mean exactly what the RE2 translation means.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { linearRegExp, toRe2 } from "../../templates/runtime/validate/pattern.ts";
import { matchesInLinearTimeNatively } from "../../templates/runtime/validate/pattern-shape.ts";

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

  it("matches hostile inputs to native patterns in linear time", () => {
    // For each, the input that makes a repeat take the most and then fail at the very end.
    const cases: [string, string][] = [
      ["^[a-z]+[0-9]*$", `${"a".repeat(200_000)}!`],
      ["^[^,]*,[^,]*$", `${"x".repeat(100_000)},${"y".repeat(100_000)},`],
      ["^[a-zA-Z0-9_.-]+$", `${"a.".repeat(100_000)}!`],
    ];
    for (const [source, input] of cases) {
      const pattern = linearRegExp(source, "u");
      const started = performance.now();
      expect(pattern.test(input)).toBe(false);
      // Linear: a few milliseconds for 200k characters. A quadratic engine would take minutes.
      expect(performance.now() - started).toBeLessThan(500);
    }
  });

  it("means what the RE2 translation means, on arbitrary strings", () => {
    const alphabet = fc.constantFrom("a", "z", "A", "0", "9", "-", "_", ".", ",", " ", "\n", "é", "😀", "x", "f");
    const text = fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join(""));
    for (const source of NATIVE) {
      const native = linearRegExp(source, "u");
      const re2 = RE2JS.compile(toRe2(source));
      fc.assert(
        fc.property(text, (input) => native.test(input) === re2.test(input)),
        { numRuns: 300 },
      );
    }
  });
});
