// Lookaheads at the start of an anchored pattern, read as separate tests so that each runs in
// linear time. Real descriptions write password and "not this word" rules this way
// (`^(?=.*\d)(?=.*[a-z]).{8,}$`, `^(?!.*linear)`), and no linear-time engine matches lookaround
// itself. At the one place `^` allows (the start of the input), `^(?=A)(?!B)C` holds exactly when
// `^(?:A)` matches, `^(?:B)` does not, and `^C` matches: a lookahead only asks whether its body
// matches at that place, and nothing outside it can refer back into it (backreferences are
// refused). Anything else (a lookahead further in, a lookbehind, an alternation at the top level
// that would put the lookaheads in one branch only) is left to pattern.ts, which refuses it.

/** An anchored pattern's leading lookaheads and what follows them, each as a pattern anchored at the start. */
export interface LeadingLookaheads {
  /** `^(?:body)` of each lookahead, and whether it must not match (`(?!...)`). */
  readonly checks: readonly { readonly source: string; readonly negated: boolean }[];
  /** `^` and the rest of the pattern. */
  readonly rest: string;
}

/**
 * The leading lookaheads of `source` (valid ECMAScript with the `u` flag), or undefined when it
 * does not start with `^` and a lookahead, or has an alternation outside every group or a
 * backreference.
 */
export function leadingLookaheads(source: string): LeadingLookaheads | undefined {
  if (!source.startsWith("^(?=") && !source.startsWith("^(?!")) return undefined;
  const checks: { source: string; negated: boolean }[] = [];
  let index = 1;
  while (source.startsWith("(?=", index) || source.startsWith("(?!", index)) {
    const end = groupEnd(source, index);
    checks.push({ source: `^(?:${source.slice(index + 3, end)})`, negated: source[index + 2] === "!" });
    index = end + 1;
  }
  if (unsplittable(source) !== undefined) return undefined;
  return { checks, rest: `^${source.slice(index)}` };
}

/**
 * Why a pattern that starts with `^` and a lookahead cannot be split into linear-time tests, for
 * the refusal to name: a backreference, or an alternation outside every group. Undefined when it
 * can be, or does not start so.
 */
export function leadingLookaheadRefusal(source: string): string | undefined {
  if (!source.startsWith("^(?=") && !source.startsWith("^(?!")) return undefined;
  const cause = unsplittable(source);
  if (cause === "backreference") return "backreferences cannot be matched in linear time (here inside or beside the leading lookahead)";
  if (cause === "alternation")
    return "lookahead and lookbehind cannot be matched in linear time: a lookahead right after the leading ^ is matched as a test of its own only when no | stands outside every group (put the alternatives in a group)";
  return undefined;
}

/** The index of the `)` that closes the group opened at `start`. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (const token of tokens(source)) {
    if (token.index < start) continue;
    if (token.text === "(") depth += 1;
    else if (token.text === ")" && --depth === 0) return token.index;
  }
  return source.length; // not reached: the pattern compiled, so every group closes
}

/** A backreference (which may point into a lookahead), else an alternation outside every group, if either. */
function unsplittable(source: string): "backreference" | "alternation" | undefined {
  let depth = 0;
  let alternation = false;
  for (const char of tokens(source)) {
    if (char.text === "backreference") return "backreference";
    if (char.text === "(") depth += 1;
    else if (char.text === ")") depth -= 1;
    else if (char.text === "|" && depth === 0) alternation = true;
  }
  return alternation ? "alternation" : undefined;
}

/**
 * The pattern's syntax characters outside classes and escapes, with their places. Under the `u`
 * flag a class ends at its first unescaped `]` and holds no nested class, and an escape's second
 * character is never `(`, `)` or `|` syntax; a backreference (`\\1`, `\\k<name>`) is a token too.
 */
function* tokens(source: string): Generator<{ readonly text: string; readonly index: number }> {
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") {
      if (/[1-9k]/.test(source[index + 1] ?? "") && !inClass) yield { text: "backreference", index };
      index += 1;
    } else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(" || char === ")" || char === "|") yield { text: char, index };
  }
}
