// Issue 26: the raw-text scan for secret names is one regular expression written as a trie
// (secret-names.ts `anyOfPatterns`), about half the cost of the plain alternation of the names.
// It must match exactly where the alternation matches: on the default names, on names and
// pointer tokens a user adds, and on texts made of the names' own pieces, so a text that names a
// secret can never be kept as it is.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/simulate/random.ts";
import { anyOfPatterns, DEFAULT_SECRET_NAMES, namePattern } from "../../templates/runtime/ledger/secret-names.ts";

/** Texts built from pieces of the names (cut anywhere, case changed, separators between) and JSON noise. */
function texts(names: readonly string[], count: number, seed: number): string[] {
  const next = mulberry32(seed); // seeded, so a failure names a text that comes back
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const pieces = [
    ...names,
    ...names.map((name) => name.slice(0, Math.max(1, Math.floor(name.length / 2)))),
    '{"',
    '":',
    ",",
    " ",
    "-",
    "_",
    ".",
    "\t",
    "1",
    "é",
    "x",
  ];
  return Array.from({ length: count }, () => {
    let text = "";
    for (let parts = 1 + Math.floor(next() * 6); parts > 0; parts--) {
      let piece = pick(pieces);
      const change = next();
      if (change < 0.3) piece = piece.toUpperCase();
      else if (change < 0.5) piece = piece.slice(Math.floor(next() * piece.length));
      text += piece;
    }
    return text;
  });
}

function sameAnswers(patterns: readonly string[], names: readonly string[], seed: number): void {
  const plain = new RegExp(patterns.join("|"), "i");
  const trie = new RegExp(anyOfPatterns(patterns), "i");
  for (const text of [...texts(names, 20_000, seed), ...names, ...names.map((name) => `{"${name.toUpperCase()}_2":1}`)])
    expect({ text, matched: trie.test(text) }).toEqual({ text, matched: plain.test(text) });
}

describe("the secret-name scan of raw texts", () => {
  it("matches exactly where the alternation of the default names matches", () => {
    const patterns = DEFAULT_SECRET_NAMES.map(namePattern);
    sameAnswers(patterns, [...DEFAULT_SECRET_NAMES, "x-api-key", "API_KEY", "card number", "session.id", "mfa code", "spin", "max_tokens"], 1);
  });

  it("matches exactly where the alternation matches on names and pointer tokens a user adds", () => {
    const added = ["ssn", "iban", "card_pin", "x.y", "a+b", "[weird]", "(paren)", "$ref", "ünïcode", "\ud83d\ude00emoji", "passwordHint", "pass"];
    const patterns = [...DEFAULT_SECRET_NAMES, ...added].map((name) => namePattern(name) || name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    patterns.push("-_".replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    sameAnswers(patterns, [...added, "-_"], 2);
  });

  it("keeps a name that another one starts with, and matches everything for an empty pattern", () => {
    const trie = new RegExp(anyOfPatterns(["pass", "password", "passwd"]), "i");
    expect(trie.test("a PASS here")).toBe(true);
    expect(trie.test("pas")).toBe(false);
    expect(new RegExp(anyOfPatterns(["token", ""]), "i").test("anything")).toBe(true);
  });
});
