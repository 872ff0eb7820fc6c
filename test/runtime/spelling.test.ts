// Near misses further than a case or separator change (issue 17), and the edit distance behind
// them, checked against a plain textbook implementation on random strings.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { spellingTable } from "../../generator/emit/spelling-table.ts";
import { normaliseNearMiss } from "../../templates/runtime/explain/near-miss.ts";
import { nearMiss } from "../../templates/runtime/explain/rules/enum.ts";
import { closestName, closestSpelling, editDistance, editsWithin } from "../../templates/runtime/explain/spelling.ts";

/** Optimal string alignment distance, written the obvious way. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe("edit distance", () => {
  it("equals the textbook one, also when the reused rows held a longer comparison before", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 12 }),
        fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 12 }),
        (a, b) => {
          expect(editDistance(a, b)).toBe(reference(a, b));
        },
      ),
      { numRuns: 2000, seed: 17 },
    );
  });
});

describe("edit distance within a bound (the near-miss search's banded table)", () => {
  // Short alphabets make near strings, long ones far: both sides of every bound are reached.
  const text = (letters: string[]) => fc.string({ unit: fc.constantFrom(...letters), maxLength: 24 });
  /** editsWithin is the distance within the bound and past it otherwise; editDistance is the distance. */
  const agreesWithReference = (a: string, b: string, most: number): void => {
    const exact = reference(a, b);
    const within = editsWithin(a, b, most);
    if (exact <= most) expect(within).toBe(exact);
    else expect(within).toBeGreaterThan(most);
    // The rows are shared with editDistance: neither may leave the other a stale cell.
    expect(editDistance(b, a)).toBe(exact);
  };
  it("is the distance when it is within the bound, and past the bound otherwise", () => {
    fc.assert(
      fc.property(
        fc.oneof(text(["a", "b"]), text(["a", "b", "c", "d", "e", "f"])),
        fc.oneof(text(["a", "b"]), text(["a", "b", "c", "d", "e", "f"])),
        fc.integer({ min: 0, max: 4 }),
        agreesWithReference,
      ),
      { numRuns: 4000, seed: 31 },
    );
  });

  // The bit-parallel way takes texts of at most 32 ASCII characters (all the strings above); a
  // longer one, or one holding a character past ASCII, takes the banded table.
  it("is the same past 32 characters and past ASCII, where the banded table answers", () => {
    const long = (letters: string[]) => fc.string({ unit: fc.constantFrom(...letters), minLength: 30, maxLength: 43 });
    fc.assert(
      fc.property(
        fc.oneof(long(["a", "b"]), long(["a", "b", "é"]), text(["a", "é", "b", "c"])),
        fc.oneof(long(["a", "b"]), long(["a", "b", "é"]), text(["a", "é", "b", "c"])),
        fc.integer({ min: 0, max: 4 }),
        agreesWithReference,
      ),
      { numRuns: 3000, seed: 37 },
    );
  });

  it("reads a value and its near misses as the textbook distance does", () => {
    for (const [a, b] of [
      ["commitorprtitle", "commitorprtitel"],
      ["commitorprtitle", "comitorprtitlee"],
      ["prtitle", "commitorprtitle"],
      ["abcdef", "badcfe"],
      ["eur", "ure"],
      ["", "ab"],
      ["ab", ""],
    ] as const)
      for (const most of [0, 1, 2, 3]) {
        const exact = reference(a, b);
        expect(exact <= most ? editsWithin(a, b, most) === exact : editsWithin(a, b, most) > most, `${a} ${b} ${most}`).toBe(true);
      }
  });
});

describe("the normal form of a near miss", () => {
  /** The definition: trimmed, lower case, without white space, `_` or `-`. */
  const normalForm = (text: string) =>
    text
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, "");
  it("equals its definition on ASCII, white space of every kind, and letters whose lower case grows", () => {
    const units = ["a", "Z", "_", "-", " ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "\u3000", "\u0130", "\u212a", "ß", "É", "0", "~", "\u007f", "\u0001"];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 16 }), (text) => {
        expect(normaliseNearMiss(text)).toBe(normalForm(text));
      }),
      { numRuns: 4000, seed: 5 },
    );
    for (const text of ["eur", "EUR", " eur ", "pr_title", "PR-TITLE", "commit or pr title", "ab~c", ""])
      expect(normaliseNearMiss(text)).toBe(normalForm(text));
  });
});

describe("near misses", () => {
  const formats = ["jpeg", "png", "webp", "gif"];
  const states = ["open", "closed", "all"];
  const statuses = ["queued", "in_progress", "completed", "cancelled", "action_required"];

  it.each([
    ["jpg", formats, "jpeg"],
    ["opened", states, "open"],
    ["canceled", statuses, "cancelled"],
    ["complete", statuses, "completed"],
    ["Action-Required", statuses, "action_required"],
  ])("reads %s as the closest allowed value", (text, values, meant) => {
    expect(closestName(text, values)).toBe(meant);
    // The same through the build-time deletion table used for sets too large to list.
    expect(closestSpelling(text, spellingTable(values))).toBe(meant);
  });

  it.each([
    ["dsc", ["asc", "desc"]], // one edit from both: no guess
    ["purple", states], // not close to anything
    ["clo", ["close", "cloud"]], // two edits from both: no guess
    ["tac", ["cat", "dog"]], // two edits in a three-letter word: another word
  ])("suggests nothing for %s", (text, values) => {
    expect(closestName(text, values)).toBeUndefined();
    expect(closestSpelling(text, spellingTable(values))).toBeUndefined();
  });

  it("reaches a value by at most half its length in edits, and never more than two", () => {
    // A three-letter code: one edit (a swap, a letter more), not two.
    expect(closestName("cta", ["cat", "dog"])).toBe("cat");
    expect(closestName("usdd", ["usd", "eur"])).toBe("usd");
    expect(closestName("ussdd", ["usd", "eur"])).toBeUndefined();
    // A four-letter word: two edits.
    expect(closestName("oepnd", states)).toBe("open");
    expect(closestName("completde", statuses)).toBe("completed");
  });

  it("reads a synonym in capitals by its normal form", () => {
    const hint = { types: ["string"], allowed: ["asc", "desc"], nearMisses: { asc: "asc", desc: "desc" } };
    expect(nearMiss("Ascending", hint)).toBe("asc");
    expect(nearMiss("DECREASING", hint)).toBe("desc");
  });
});
