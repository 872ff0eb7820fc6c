// The helpers every generated validator calls on the valid path, checked against plain
// definitions: code points as the string iterator counts them, and calendar days as the
// Date constructor sees them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ucs2length } from "../../templates/runtime/validate/ajv-runtime.ts";
import { date } from "../../templates/runtime/validate/formats.ts";

/** Any UTF-16 text: surrogate pairs, lone surrogates of both kinds, ASCII. */
const utf16 = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 })
    .map((units) => String.fromCharCode(...units)),
);

describe("ucs2length", () => {
  it("counts code points, a lone surrogate as one", () => {
    fc.assert(
      fc.property(utf16, (text) => ucs2length(text) === [...text].length),
      { numRuns: 2000 },
    );
  });

  it.each<[string, number]>([
    ["", 0],
    ["abc", 3],
    ["😀", 1],
    ["a😀b", 3],
    ["\ud83d", 1],
    ["\ude00\ud83d", 2],
    ["\ud83d\ud83d\ude00", 2],
  ])("%j has %i", (text, length) => {
    expect(ucs2length(text)).toBe(length);
  });
});

/** Whether `text` names a real day, by the Date constructor's own calendar. */
function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(0);
  parsed.setUTCFullYear(year, month - 1, day);
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

describe("the date format", () => {
  const digit = fc.constantFrom(..."0123456789");
  const nearDate = fc
    .tuple(
      fc.array(digit, { minLength: 4, maxLength: 4 }),
      fc.array(digit, { minLength: 2, maxLength: 2 }),
      fc.array(digit, { minLength: 2, maxLength: 2 }),
      fc.constantFrom("-", "-", "-", "/", "x"),
    )
    .map(([year, month, day, separator]) => `${year.join("")}-${month.join("")}${separator}${day.join("")}`);
  const shortMonthDay = fc
    .tuple(fc.integer({ min: 0, max: 2400 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);

  it("accepts exactly the real calendar days", () => {
    fc.assert(
      fc.property(fc.oneof(nearDate, shortMonthDay, fc.string({ maxLength: 12 })), (text) => date(text) === isCalendarDay(text)),
      { numRuns: 5000 },
    );
  });

  it.each<[string, boolean]>([
    ["2026-01-31", true],
    ["2024-02-29", true],
    ["2026-02-29", false],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2026-04-31", false],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["2026-01-00", false],
    ["2026-1-31", false],
    ["2026-01-31 ", false],
    ["٢٠٢٦-01-31", false],
    ["2026/01/31", false],
  ])("%s: %s", (text, valid) => {
    expect(date(text)).toBe(valid);
  });
});
