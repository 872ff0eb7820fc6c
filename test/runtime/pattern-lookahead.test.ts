// Lookaheads right after a leading `^` (password rules, "not this word") are matched in linear
// time by testing each lookahead and the rest on their own (pattern-lookahead.ts). The answer
// must be V8's own for every input; every other lookaround stays refused, with its reason.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leadingLookaheads } from "../../templates/runtime/validate/pattern-lookahead.ts";
import { linearRegExp, PatternError } from "../../templates/runtime/validate/pattern.ts";

// Written as real descriptions write them.
const SPLIT = [
  "^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,64}$", // three lookaheads: a password rule
  "^(?=.*[!@#$%^&*()_+|~=`{}\\[\\]:\";'<>?,./-]).{8,}$", // a class holding ( ) | [ and ]
  "^(?!.*linear)", // nothing after the lookahead
  "^(?!\\s*$).+", // not blank
  "^(?!draft|wip)[a-z-]+$", // alternation inside the lookahead only
  "^(?=(?:[^a]*a){2})[a-z]{3,5}$", // a group inside the lookahead
  "^(?!\\()[^)]+$", // escaped parentheses
  "^(?=a)(?!ab)a.*", // positive and negative
  "^(?!a)a$", // nothing matches
];

const REFUSED = [
  "(?=a)a", // not anchored: a search at every place
  "^a(?=b)", // not at the start
  "^(?=a)a|b", // an alternation outside the lookahead: only one branch holds it
  "^a|(?=b)b",
  "^(?<=a)a", // lookbehind
  "^(?=(?=a)a)a", // a lookahead inside one
  "^(?=(a))\\1", // a backreference into the lookahead
];

describe("lookaheads after a leading ^", () => {
  it.each(SPLIT)("%s matches what V8's engine matches", (source) => {
    const native = new RegExp(source, "u");
    const linear = linearRegExp(source, "u");
    const alphabet = fc.constantFrom(
      "a",
      "b",
      "z",
      "A",
      "Z",
      "0",
      "9",
      "!",
      "(",
      ")",
      " ",
      "\n",
      "-",
      "é",
      "😀",
      "l",
      "i",
      "n",
      "e",
      "r",
      "d",
      "f",
      "t",
      "w",
      "p",
    );
    const text = fc.array(alphabet, { maxLength: 16, size: "max" }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (input) => linear.test(input) === native.test(input)),
      { numRuns: 2000, seed: 7 },
    );
    expect(linear.toString()).toBe(`/${source}/u`);
  });

  it("answers the written examples as the rule means them", () => {
    const password = linearRegExp("^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,64}$", "u");
    expect(password.test("Abcdefg1")).toBe(true);
    expect(password.test("abcdefg1")).toBe(false); // no capital
    expect(password.test("Abcdefgh")).toBe(false); // no digit
    expect(password.test("Ab1")).toBe(false); // too short
    const notLinear = linearRegExp("^(?!.*linear)", "u");
    expect(notLinear.test("my project")).toBe(true);
    expect(notLinear.test("the linear team")).toBe(false);
    expect(notLinear.test("line\nlinear")).toBe(true); // `.` stops at a line terminator, as in V8
  });

  it("runs in linear time where V8's engine backtracks", () => {
    // The rest backtracks exponentially in V8 on this input; split, it runs on RE2.
    const linear = linearRegExp("^(?=a)(a+)+$", "u");
    expect(linear.test(`${"a".repeat(40)}!`)).toBe(false);
  });

  it.each(REFUSED)("%s is still refused, naming lookaround or backreferences", (source) => {
    expect(() => linearRegExp(source, "u")).toThrow(PatternError);
    expect(() => linearRegExp(source, "u")).toThrow(/lookahead and lookbehind|backreferences/);
  });

  it("splits only a pattern that starts with ^ and a lookahead, with no alternation at the top", () => {
    expect(leadingLookaheads("^(?=.*\\d)(?!x)[a-z\\d]+$")).toEqual({
      checks: [
        { source: "^(?:.*\\d)", negated: false },
        { source: "^(?:x)", negated: true },
      ],
      rest: "^[a-z\\d]+$",
    });
    expect(leadingLookaheads("^[(](?=a)")).toBeUndefined();
    expect(leadingLookaheads("^(?=a)a|b")).toBeUndefined();
    expect(leadingLookaheads("^(?=[|])a")).toEqual({ checks: [{ source: "^(?:[|])", negated: false }], rest: "^a" });
  });
});
