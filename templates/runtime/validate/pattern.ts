// The one regular-expression engine of every `pattern` and `patternProperties`: RE2 (the re2js
// port), whose matching time is linear in the input, so no pattern a schema author writes can
// make a call hang (`^(a+)+$` against "aaaa…b" backtracks exponentially in V8's engine). The
// generator compiles schemas with this same function, so a pattern that compiles at generation
// compiles at run time, and means the same thing.
//
// JSON Schema patterns are ECMAScript regular expressions (with the `u` flag). RE2's syntax is
// close but not equal, so each pattern is checked as ECMAScript first and then translated token
// by token; what RE2 cannot express in linear time (lookaround, backreferences) is refused,
// but for lookaheads right after a leading `^`, which pattern-lookahead.ts splits off.
import { RE2JS } from "re2js";
import { leadingLookaheadRefusal, leadingLookaheads } from "./pattern-lookahead.ts";
import { type CharSet, complement, LINE_TERMINATORS, matchesInLinearTimeNatively, SPACE } from "./pattern-shape.ts";

/** What ajv's generated code calls: `test` searches anywhere in the string, like RegExp#test. */
export interface LinearPattern {
  test(input: string): boolean;
  /** Names the pattern: ajv caches compiled patterns by this string. */
  toString(): string;
}

/** A pattern toolguard cannot match in linear time, or that is not valid ECMAScript. */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternError";
  }
}

// ECMAScript's \s (WhiteSpace and LineTerminator) and `.` (anything but a line terminator);
// RE2's own \s is ASCII-only and its `.` excludes only \n.
const SPACE_MEMBERS = re2Members(SPACE);
// \S inside a class (`[\s\S]`, the common "any character", or `[\S,]`) is written as the
// complement's ranges: RE2's own `\S` is the complement of its ASCII `\s`.
const NOT_SPACE_MEMBERS = re2Members(complement(SPACE));
const DOT = `[^${re2Members(LINE_TERMINATORS)}]`;
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { t: "\\t", n: "\\n", r: "\\r", f: "\\f", v: "\\x{0B}", "0": "\\x{0}" };

// ECMAScript accepts the long names of general categories; RE2 only the short ones.
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Letter: "L",
  Uppercase_Letter: "Lu",
  Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Mark: "M",
  Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps",
  Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi",
  Final_Punctuation: "Pf",
  Other_Punctuation: "Po",
  Symbol: "S",
  Math_Symbol: "Sm",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Other_Symbol: "So",
  Separator: "Z",
  Space_Separator: "Zs",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Surrogate: "Cs",
  Private_Use: "Co",
  Unassigned: "Cn",
};

function compilePattern(source: string, flags = "u"): LinearPattern {
  let native: RegExp;
  try {
    native = new RegExp(source, flags.includes("u") ? "u" : "");
  } catch (error) {
    throw new PatternError(`not a valid ECMAScript regular expression with the unicode flag: ${(error as Error).message}`);
  }
  // ajv keys its cache of compiled patterns by `toString()`: it must name the pattern.
  const key = `/${source}/${flags}`;
  // A pattern V8 provably matches in linear time runs natively: same meaning by definition (JSON
  // Schema patterns are ECMAScript's), and far faster than RE2 in JavaScript. See pattern-shape.ts.
  if (matchesInLinearTimeNatively(source)) return { test: (input) => native.test(input), toString: () => key };
  // `^(?=A)(?!B)C`: each lookahead, and the rest, compiled on its own (see pattern-lookahead.ts).
  const split = leadingLookaheads(source);
  if (split) {
    const checks = split.checks.map((check) => ({ pattern: compilePattern(check.source, flags), negated: check.negated }));
    const rest = compilePattern(split.rest, flags);
    return { test: (input) => checks.every((check) => check.pattern.test(input) !== check.negated) && rest.test(input), toString: () => key };
  }
  // A leading lookahead that cannot be split off is refused for its own reason, not as one elsewhere.
  const refusal = leadingLookaheadRefusal(source);
  if (refusal !== undefined) throw new PatternError(refusal);
  const translated = toRe2(source);
  try {
    const compiled = RE2JS.compile(translated);
    return { test: (input) => compiled.test(input), toString: () => key };
  } catch (error) {
    throw new PatternError(`the linear-time engine cannot match it: ${(error as Error).message}`);
  }
}
/**
 * Compiles a JSON Schema pattern into a linear-time matcher. ajv calls it while compiling and
 * writes `<code>(pattern, "u")` into the standalone validator, which imports it by this name.
 */
export const linearRegExp: ((source: string, flags?: string) => LinearPattern) & { readonly code: string } = Object.assign(compilePattern, {
  code: "linearRegExp",
});

/** Translates a valid ECMAScript (`u`) pattern into RE2 syntax with the same meaning. */
export function toRe2(source: string): string {
  let out = "";
  let inClass = false;
  let classStart = false;
  for (let index = 0; index < source.length; ) {
    const char = source[index] as string;
    if (char === "\\") {
      const [text, length] = escapeSequence(source, index, inClass);
      out += text;
      index += length;
      classStart = false;
      continue;
    }
    if (inClass) {
      if (char === "]" && !classStart) {
        inClass = false;
        out += "]";
      } else if (char === "]") {
        // ECMAScript's `[]` matches nothing and `[^]` anything; RE2 reads `]` there as a literal.
        out = out.endsWith("[^") ? `${out.slice(0, -2)}[\\x{0}-\\x{10FFFF}]` : `${out.slice(0, -1)}[^\\x{0}-\\x{10FFFF}]`;
        inClass = false;
      } else {
        out += char === "[" ? "\\[" : char;
        classStart = false;
      }
      index += char.length;
      continue;
    }
    if (char === "[") {
      inClass = true;
      classStart = true;
      out += source[index + 1] === "^" ? "[^" : "[";
      index += source[index + 1] === "^" ? 2 : 1;
      continue;
    }
    if (char === "(" && source[index + 1] === "?") {
      const head = source.slice(index, index + 4);
      if (/^\(\?(?:[=!]|<[=!])/.test(head))
        throw new PatternError("lookahead and lookbehind cannot be matched in linear time (lookaheads are matched only at the start, right after a leading ^)");
      if (head.startsWith("(?<")) {
        out += "(?P<";
        index += 3;
        continue;
      }
    }
    out += char === "." ? DOT : char;
    index += 1;
  }
  return out;
}

/** One escape sequence at `index`: its RE2 text and how many characters it spans. */
function escapeSequence(source: string, index: number, inClass: boolean): [string, number] {
  const next = source[index + 1] ?? "";
  if (next === "s") return [inClass ? SPACE_MEMBERS : `[${SPACE_MEMBERS}]`, 2];
  if (next === "S") return [inClass ? NOT_SPACE_MEMBERS : `[^${SPACE_MEMBERS}]`, 2];
  if (next === "b" && inClass) return ["\\x{8}", 2];
  if (next in CONTROL_ESCAPES && !(next === "0" && /[0-9]/.test(source[index + 2] ?? ""))) return [CONTROL_ESCAPES[next] as string, 2];
  if (/[1-9]/.test(next) || next === "k") throw new PatternError("backreferences cannot be matched in linear time");
  if (next === "c") return [codePoint((source.charCodeAt(index + 2) % 32).toString(16)), 3];
  if (next === "x") return [codePoint(source.slice(index + 2, index + 4)), 4];
  if (next === "u") {
    if (source[index + 2] === "{") {
      const end = source.indexOf("}", index);
      return [codePoint(source.slice(index + 3, end)), end - index + 1];
    }
    const unit = Number.parseInt(source.slice(index + 2, index + 6), 16);
    const low = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(source.slice(index + 6, index + 12)) ? Number.parseInt(source.slice(index + 8, index + 12), 16) : -1;
    if (unit >= 0xd800 && unit <= 0xdbff && low >= 0) return [codePoint((((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000).toString(16)), 12];
    if (unit >= 0xd800 && unit <= 0xdfff) throw new PatternError("a lone surrogate cannot be matched by the linear-time engine");
    return [codePoint(unit.toString(16)), 6];
  }
  if (next === "p" || next === "P") {
    const end = source.indexOf("}", index);
    const written = source.slice(index + 3, end).replace(/^(?:Script|sc|General_Category|gc)=/, "");
    const name = CATEGORY_ALIASES[written] ?? written;
    return [`\\${next}{${name}}`, end - index + 1];
  }
  // `d D w W b B` mean the same in both; the rest are escaped syntax characters.
  return [`\\${next}`, 2];
}

/** The members of a character class, in RE2's syntax. */
function re2Members(set: CharSet): string {
  return set.map(([from, to]) => (from === to ? codePoint(from.toString(16)) : `${codePoint(from.toString(16))}-${codePoint(to.toString(16))}`)).join("");
}

function codePoint(hex: string): string {
  return `\\x{${hex.toUpperCase()}}`;
}
