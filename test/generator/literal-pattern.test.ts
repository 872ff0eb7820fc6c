import { describe, expect, it } from "vitest";
import { literalPatternWords } from "../../generator/emit/literal-pattern.ts";

describe("literalPatternWords: a pattern that spells out every text it accepts", () => {
  it.each([
    ["^new$", ["new"]],
    ["^(me|self)$", ["me", "self"]],
    ["^(?:all|none)$", ["all", "none"]],
    ["^v1\\.0$", ["v1.0"]],
  ])("%s -> %j", (pattern, words) => {
    expect(literalPatternWords(pattern)).toEqual(words);
  });

  it.each([["new"], ["^new"], ["^me|self$"], ["^[a-z]+$"], ["^\\d+$"], ["^a.b$"], ["^(a|b)c$"], ["^$"]])("%s is not a list of words", (pattern) => {
    expect(literalPatternWords(pattern)).toBeUndefined();
  });
});
