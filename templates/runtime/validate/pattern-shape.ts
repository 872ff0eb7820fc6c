// Which patterns V8's own engine matches in linear time, so they can skip RE2 (re2js): for
// `^[A-Z0-9-]{3,32}$` the native RegExp is some twenty times faster, and most schema patterns
// look like that. The rule is deliberately narrow and proven, not guessed:
//
//   - the pattern is anchored with `^` (so the engine tries one start position, not every one);
//   - it is a plain sequence of single-character items: literals, escapes such as \d \w \s \.,
//     character classes and `.`, each optionally quantified (`* + ? {n} {n,} {n,m}`), then an
//     optional `$`; no groups, no alternation, no lazy quantifiers, no lookaround;
//   - every item that repeats a variable number of times matches no character that the items
//     after it could start with (those up to and including the first required one).
//
// Under the last condition, giving back a character a repeat took can never let the rest of the
// pattern match it, so each give-back fails after at most one step per item: a backtracking
// engine does O(length of input x items) work. Anything outside the rule stays on RE2.

/** A set of code points as sorted, disjoint, inclusive ranges. */
export type CharSet = readonly (readonly [number, number])[];

interface Item {
  readonly set: CharSet;
  readonly min: number;
  readonly max: number;
}

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: CharSet = [[0x30, 0x39]];
const WORD: CharSet = normalise([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** ECMAScript's WhiteSpace and LineTerminator, as `\s` matches them (pattern.ts spells it for RE2). */
export const SPACE: CharSet = normalise([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** What ECMAScript's `.` does not match. */
export const LINE_TERMINATORS: CharSet = normalise([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: DIGITS,
  D: complement(DIGITS),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
/** Escaped characters that stand for themselves with the `u` flag (ECMAScript's SyntaxCharacter and `/`, `-`). */
const IDENTITY_ESCAPES = new Set(["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/", "-"]);

/**
 * Whether `source` (a valid ECMAScript pattern with the `u` flag) is in the class above: V8's
 * engine then matches it in time linear in the input.
 */
export function matchesInLinearTimeNatively(source: string): boolean {
  const items = parseItems(source);
  return items !== undefined && deterministic(items);
}

/** The pattern's items, or undefined when it is not an anchored sequence of single-character items. */
function parseItems(source: string): Item[] | undefined {
  if (!source.startsWith("^")) return undefined;
  const points = Array.from(source, (char) => char.codePointAt(0) as number);
  const items: Item[] = [];
  let at = 1;
  while (at < points.length) {
    const char = String.fromCodePoint(points[at] as number);
    if (char === "$") return at === points.length - 1 ? items : undefined;
    let set: CharSet | undefined;
    if (char === "\\") {
      const escaped = escapeSet(points, at + 1);
      if (!escaped) return undefined;
      [set, at] = escaped;
    } else if (char === "[") {
      const parsed = classSet(points, at + 1);
      if (!parsed) return undefined;
      [set, at] = parsed;
    } else if (char === ".") {
      set = complement(LINE_TERMINATORS);
      at++;
    } else if ("()|*+?{}]^".includes(char)) {
      return undefined;
    } else {
      set = [[points[at] as number, points[at] as number]];
      at++;
    }
    const quantified = quantifier(points, at);
    if (!quantified) return undefined;
    const [min, max, next] = quantified;
    items.push({ set, min, max });
    at = next;
  }
  return items;
}

/** A quantifier at `at` (or none): [min, max, index after it]; undefined for a lazy or malformed one. */
function quantifier(points: readonly number[], at: number): [number, number, number] | undefined {
  const char = points[at] === undefined ? "" : String.fromCodePoint(points[at] as number);
  let result: [number, number, number];
  if (char === "*") result = [0, Infinity, at + 1];
  else if (char === "+") result = [1, Infinity, at + 1];
  else if (char === "?") result = [0, 1, at + 1];
  else if (char === "{") {
    const text = String.fromCodePoint(...points.slice(at, at + 24));
    const match = /^\{(\d{1,6})(,(\d{0,6}))?\}/.exec(text);
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    if (max < min) return undefined;
    result = [min, max, at + match[0].length];
  } else return [1, 1, at];
  // A lazy quantifier (`*?`) would still be linear here, but nothing needs it: keep the rule small.
  return points[result[2]] === 0x3f ? undefined : result;
}

/** The set of the escape whose letter is at `at`, and the index after it. */
function escapeSet(points: readonly number[], at: number): [CharSet, number] | undefined {
  const point = points[at];
  if (point === undefined) return undefined;
  const char = String.fromCodePoint(point);
  const named = CLASS_ESCAPES[char];
  if (named) return [named, at + 1];
  const control = CONTROL_ESCAPES[char];
  if (control !== undefined) return [[[control, control]], at + 1];
  if (IDENTITY_ESCAPES.has(char)) return [[[point, point]], at + 1];
  // \b \B are assertions; \u \x \p \c \0 and backreferences are left to RE2.
  return undefined;
}

/** A character class whose first member is at `at`: its set and the index after `]`. */
function classSet(points: readonly number[], at: number): [CharSet, number] | undefined {
  const negated = points[at] === 0x5e; // ^
  if (negated) at++;
  const ranges: [number, number][] = [];
  let first = true;
  for (;;) {
    const point = points[at];
    if (point === undefined) return undefined;
    // `[]` and `[^]` are legal and odd; leave them to RE2.
    if (point === 0x5d) {
      if (first) return undefined;
      at++;
      break;
    }
    first = false;
    const low = classMember(points, at);
    if (!low) return undefined;
    let [set, next] = low;
    if (points[next] === 0x2d && points[next + 1] !== 0x5d && points[next + 1] !== undefined) {
      const high = classMember(points, next + 1);
      // Ranges need single characters at both ends (`[\d-z]` is an error with the `u` flag).
      if (!high || set.length !== 1 || high[0].length !== 1) return undefined;
      const from = (set[0] as readonly [number, number])[0];
      const to = (high[0][0] as readonly [number, number])[0];
      if (from !== (set[0] as readonly [number, number])[1] || to < from) return undefined;
      set = [[from, to]];
      next = high[1];
    }
    ranges.push(...set.map(([a, b]) => [a, b] as [number, number]));
    at = next;
  }
  const set = normalise(ranges);
  return [negated ? complement(set) : set, at];
}

function classMember(points: readonly number[], at: number): [CharSet, number] | undefined {
  const point = points[at] as number;
  if (point === 0x5c) {
    const next = points[at + 1];
    // Inside a class, \b is a backspace; everything else escapes as outside.
    if (next === 0x62) return [[[0x08, 0x08]], at + 2];
    return escapeSet(points, at + 1);
  }
  if (point === 0x5b) return undefined; // a literal `[` inside a class: legal, but rare; RE2 takes it
  return [[[point, point]], at + 1];
}

/** Every variable repeat is disjoint from what may follow it, up to the first required item. */
function deterministic(items: readonly Item[]): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Item;
    if (item.min === item.max) continue;
    for (let j = i + 1; j < items.length; j++) {
      const next = items[j] as Item;
      if (intersects(item.set, next.set)) return false;
      if (next.min > 0) break;
    }
  }
  return true;
}

function normalise(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Every code point not in `set` (which is sorted and merged, as `normalise` leaves it). */
export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of set) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aFrom, aTo] = a[i] as readonly [number, number];
    const [bFrom, bTo] = b[j] as readonly [number, number];
    if (aFrom <= bTo && bFrom <= aTo) return true;
    if (aTo < bTo) i++;
    else j++;
  }
  return false;
}
