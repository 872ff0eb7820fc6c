// A string a `pattern` accepts. Most identifiers in real descriptions are patterned (Twilio's
// `^AC[0-9a-fA-F]{32}$` Sids, Discord's snowflakes `^(0|[1-9][0-9]*)$`), and a value built
// without its pattern never passes: rehearse's valid call and the corpus judge's synthesizer
// (test/corpus/synthesize.ts) both start from this module.
//
// The pattern is parsed by regexpp (the ECMAScript regular-expression parser eslint uses), not by
// a reader of our own: JSON Schema patterns are ECMAScript with the `u` flag, and every corner of
// that grammar (escapes, classes, `\p{…}`, named groups, `v`-mode sets) is regexpp's job. The walk
// over its tree builds one string: an alternative per alternation, a count per quantifier, a
// character per class. What the walk cannot build directly (lookaround, `\b`) it leaves out, and
// the result is always checked with the pattern itself: a string that does not match is never
// returned, so a caller gets a matching string or `undefined`, never a wrong one.
import { type AST, RegExpParser } from "@eslint-community/regexpp";
import { type Seeded, seeded } from "./seeded.ts";

/** What to build: the string's length bounds (a schema's minLength/maxLength) and its choices. */
export interface PatternInstanceOptions {
  /**
   * Seeded choices (which alternative, how many repeats, which class member), so different seeds
   * give different matching strings. Without it every choice is the first: one string per pattern.
   */
  readonly random?: Seeded;
  /** Least length in code points, as JSON Schema's `minLength` counts. */
  readonly minLength?: number;
  /** Greatest length in code points, as JSON Schema's `maxLength` counts. */
  readonly maxLength?: number;
}

/** Characters tried for a class whose members are not listed (`[^…]`, `.`, `\S`, `\p{L}`), in order. */
const POOL = [
  ..."abcxyzABCXYZ0123456789_-.~ ",
  ...Array.from({ length: 0x7f - 0x21 }, (_, index) => String.fromCharCode(0x21 + index)),
  ..."éüßÅ中日한Ωж",
  "\t",
  "\n",
];
/** Members tried first for a class escape, before the pool. */
const ESCAPE_SAMPLES: Readonly<Record<"digit" | "space" | "word", string>> = { digit: "1234567890", space: " \t", word: "abcXYZ_019" };
/** Tries with other choices before giving up (each is one walk and one match). */
const ATTEMPTS = 12;
/** Past this many characters a pattern's least instance is no useful value (`a{100000}`). */
const MAX_LENGTH = 4096;
/** Extra repeats an open quantifier (`*`, `+`, `{2,}`) may take beyond its least count. */
const OPEN_EXTRA = 3;

/**
 * A string that `pattern` (ECMAScript, as JSON Schema reads it) accepts and that fits the length
 * bounds, or `undefined` when the pattern is not valid or no string could be built.
 */
export function patternInstance(pattern: string, options: PatternInstanceOptions = {}): string | undefined {
  const parsed = parse(pattern);
  if (parsed === undefined) return undefined;
  const min = options.minLength ?? 0;
  const max = options.maxLength ?? Number.POSITIVE_INFINITY;
  if (min > max || min > MAX_LENGTH) return undefined;
  let shortest: string | undefined;
  for (const [index, grow] of plans(min).entries()) {
    // Unseeded, the first walks take every first choice; later ones draw from a fixed seed, so
    // the answer is still one string per pattern, but a lookahead the first choices miss
    // (`(?=.*\d)` after a `.` that gave "a") gets other tries.
    const random = options.random ?? (index < 2 ? undefined : seeded(index));
    const text = new Walk(parsed.flags, grow, random).pattern(parsed.tree);
    if (text === undefined || !parsed.regex.test(text)) continue;
    const length = [...text].length;
    if (length >= min && length <= max) return text;
    if (length < min && (shortest === undefined || length > [...shortest].length)) shortest = text;
  }
  // A pattern anchored at neither end or only one (`[\s\S]`, `^ab`) also accepts the string with
  // more around it: pad the longest short match to the minLength and match again.
  if (shortest !== undefined) {
    const padding = "a".repeat(min - [...shortest].length);
    for (const padded of [shortest + padding, padding + shortest]) if (parsed.regex.test(padded) && padded.length <= max) return padded;
  }
  return undefined;
}

/**
 * How much each walk grows its quantifiers: the usual count (0), every least count (-1, for a
 * maxLength), more repeats (for a minLength), then usual walks again with other choices.
 */
function plans(minLength: number): number[] {
  const out = [0, -1];
  for (let grow = 1; grow <= Math.max(minLength, 1) && out.length < ATTEMPTS; grow *= 2) out.push(grow);
  while (out.length < ATTEMPTS) out.push(0);
  return out;
}

interface Parsed {
  readonly tree: AST.Pattern;
  readonly regex: RegExp;
  readonly flags: string;
}

/** The pattern as the `u` flag reads it, as JSON Schema specifies; else as plain ECMAScript reads it. */
function parse(pattern: string): Parsed | undefined {
  for (const flags of ["u", ""]) {
    try {
      const tree = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(pattern, 0, pattern.length, { unicode: flags === "u" });
      return { tree, regex: new RegExp(pattern, flags), flags };
    } catch {
      // not valid in this mode: try the next
    }
  }
  return undefined;
}

class Walk {
  private readonly flags: string;
  private readonly grow: number;
  private readonly random: Seeded | undefined;
  /** What each capturing group matched last, for a backreference to repeat. */
  private readonly captured = new Map<AST.CapturingGroup, string>();
  /** Compiled single-character tests of classes met, by their source. */
  private readonly members = new Map<string, string[]>();
  private length = 0;

  constructor(flags: string, grow: number, random: Seeded | undefined) {
    this.flags = flags;
    this.grow = grow;
    this.random = random;
  }

  pattern(tree: AST.Pattern): string | undefined {
    try {
      return this.alternatives(tree.alternatives);
    } catch (error) {
      if (error instanceof TooLong) return undefined;
      throw error;
    }
  }

  private choose(count: number): number {
    return this.random === undefined || count <= 1 ? 0 : this.random.below(count);
  }

  private alternatives(alternatives: readonly AST.Alternative[]): string {
    const chosen = alternatives[this.choose(alternatives.length)];
    return chosen === undefined ? "" : chosen.elements.map((element) => this.element(element)).join("");
  }

  private element(element: AST.Element): string {
    switch (element.type) {
      case "Assertion":
        // `^`, `$`, `\b` and lookaround consume nothing; whether the string still satisfies them
        // is the final match's question.
        return "";
      case "Quantifier":
        return this.quantifier(element);
      case "Group":
        return this.alternatives(element.alternatives);
      case "CapturingGroup": {
        const text = this.alternatives(element.alternatives);
        this.captured.set(element, text);
        return text;
      }
      case "Backreference": {
        const groups = Array.isArray(element.resolved) ? element.resolved : [element.resolved];
        const group = groups.find((candidate) => this.captured.has(candidate));
        return this.emit(group === undefined ? "" : (this.captured.get(group) as string));
      }
      case "Character":
        return this.emit(String.fromCodePoint(element.value));
      case "CharacterSet":
      case "CharacterClass":
      case "ExpressionCharacterClass":
        return this.emit(this.member(element));
    }
  }

  private quantifier(node: AST.Quantifier): string {
    let count: number;
    if (this.grow < 0) count = node.min;
    else {
      // The usual count is one where none is required (so `x*` and `x?` show their x), a seeded
      // one up to OPEN_EXTRA more; growing adds repeats toward a minLength.
      const least = node.min === 0 && node.max > 0 ? 1 : node.min;
      const most = Math.min(node.max, least + OPEN_EXTRA);
      count = least + this.choose(most - least + 1) + this.grow;
      count = Math.min(count, node.max);
    }
    if (count > MAX_LENGTH) throw new TooLong();
    let out = "";
    for (let index = 0; index < count; index++) out += this.element(node.element);
    return out;
  }

  /** One character of a class: its listed members first, then the pool, each checked by the class itself. */
  private member(node: AST.CharacterSet | AST.CharacterClass | AST.ExpressionCharacterClass): string {
    let members = this.members.get(node.raw);
    if (members === undefined) {
      const test = new RegExp(`^(?:${node.raw})$`, this.flags);
      members = [...new Set([...listed(node), ...POOL])].filter((candidate) => test.test(candidate));
      this.members.set(node.raw, members);
    }
    // A class that matches nothing in the pool (a range of CJK only, say) gives its first listed
    // member, which the final match checks.
    if (members.length === 0) return listed(node)[0] ?? "";
    return members[this.choose(Math.min(members.length, 16))] as string;
  }

  private emit(text: string): string {
    this.length += text.length;
    if (this.length > MAX_LENGTH * 2) throw new TooLong();
    return text;
  }
}

class TooLong extends Error {}

/** The members a class names outright: its characters, each range's printable ends, an escape's samples. */
function listed(node: AST.CharacterSet | AST.CharacterClass | AST.ExpressionCharacterClass | AST.CharacterClassElement): string[] {
  switch (node.type) {
    case "Character":
      return [String.fromCodePoint(node.value)];
    case "CharacterClassRange": {
      const low = node.min.value;
      const high = node.max.value;
      // A range over printable ASCII gives a character of that part (`[\x00-\x7F]` gives "a",
      // not NUL); else its low end and the one after it.
      const out: string[] = [];
      for (const sample of "aA0zZ9") if (sample.codePointAt(0)! >= low && sample.codePointAt(0)! <= high) out.push(sample);
      out.push(String.fromCodePoint(Math.max(low, Math.min(high, 0x21))), String.fromCodePoint(low), String.fromCodePoint(Math.min(high, low + 1)));
      return out;
    }
    case "CharacterSet":
      return node.kind === "any" || node.kind === "property" || node.negate ? [] : [...ESCAPE_SAMPLES[node.kind]];
    case "CharacterClass":
      return node.negate ? [] : node.elements.flatMap((element) => listed(element));
    // `v`-mode set operations and `\q{…}` (never parsed here: JSON Schema reads `u`, not `v`).
    case "ClassStringDisjunction":
    case "ExpressionCharacterClass":
      return [];
  }
}
