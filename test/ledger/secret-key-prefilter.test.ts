// A key is read as words (`keyWords`, four replaces and a split) only when the tool's name scan
// (`mention`, one trie) could find a secret name in it: a closed object sent with thousands of
// unknown keys spent half its call reading them (test/hostile/growth.test.ts). The scan must
// never skip a key the plain reading calls secret: here the plain reading is written out from
// the exported pieces and asked of keys made of the names' own pieces, cut, re-cased and joined
// by separators, digits and the characters that lower-case into ASCII letters.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/simulate/random.ts";
import { compileRules } from "../../templates/runtime/ledger/redaction-rules.ts";
import { DEFAULT_SECRET_NAMES, keyWords, namePattern, wordPattern } from "../../templates/runtime/ledger/secret-names.ts";

/** The secret-name test without the scan in front: a name at the key's end, or among its words. */
function plainReading(listed: readonly string[]): (key: string) => boolean {
  const ends = listed.filter((name) => name.replace(/[^A-Za-z0-9]/g, "").length > 3).map(namePattern);
  const words = listed.map(wordPattern).filter((name) => name !== "");
  const secretKey = new RegExp(`(?:${ends.join("|")})$`, "i");
  const secretWords = new RegExp(`(?:^| )(?:${words.join("|")})(?: |$)`);
  return (key) => secretKey.test(key) || secretWords.test(keyWords(key));
}

/** Keys built from pieces of the names and of what splits words, seeded so a failure comes back. */
function keys(names: readonly string[], count: number, seed: number): string[] {
  const next = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const pieces = [
    ...names,
    ...names.map((name) => name.slice(0, Math.ceil(name.length / 2))),
    "_",
    "-",
    ".",
    " ",
    ":",
    "/",
    "2",
    "x",
    "é",
    "\u0130",
    "\u212a",
    "\u0131",
    "\u017f",
  ];
  return Array.from({ length: count }, () => {
    let key = "";
    for (let parts = 1 + Math.floor(next() * 5); parts > 0; parts--) {
      let piece = pick(pieces);
      const change = next();
      if (change < 0.25) piece = piece.toUpperCase();
      else if (change < 0.4) piece = piece.slice(Math.floor(next() * piece.length));
      else if (change < 0.5) piece = piece.replace(/[ikK]/, (letter) => (letter === "i" ? "\u0130" : "\u212a"));
      key += piece;
    }
    return key;
  });
}

function sameAnswers(listed: readonly string[], options: { fields?: string[]; replaceDefaults?: boolean }, seed: number): void {
  const rules = compileRules({ type: "object" }, options, [], []);
  const plain = plainReading(listed);
  for (const key of [...keys(listed, 20_000, seed), ...listed, "apİKey", "pass\u212aey", "sessionİd", "k123", "max_tokens"])
    expect({ key, secret: rules.isSecretName(key) }).toEqual({ key, secret: plain(key) });
}

describe("the name scan in front of reading a key as words", () => {
  it("answers as the plain reading on keys made of the default names' pieces", () => {
    sameAnswers(DEFAULT_SECRET_NAMES, {}, 3);
  });

  it("answers as the plain reading with names a user adds, and with the defaults replaced", () => {
    const added = ["iban", "card_pin", "x.y", "ünïcode", "passwordHint", "pin2"];
    sameAnswers([...DEFAULT_SECRET_NAMES, ...added], { fields: added }, 4);
    sameAnswers(added, { fields: added, replaceDefaults: true }, 5);
  });

  it("answers as the plain reading on any key", () => {
    const rules = compileRules({ type: "object" }, {}, [], []);
    const plain = plainReading(DEFAULT_SECRET_NAMES);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 24 }), (key) => rules.isSecretName(key) === plain(key)),
      { numRuns: 5_000, seed: 6 },
    );
  });
});
