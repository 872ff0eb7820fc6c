// A value in a well-known format written another way, whose standard form the value itself
// determines: a uuid without its dashes or braces, a date written day/month/year where the day
// cannot be a month (`31/01/2026`) or year first with slashes or dots. `01/02/2026` could be
// either of two dates, so nothing is offered for it.

/** The value `text` means in `format`, written as the format wants, or undefined when not determined. */
export function reformatted(format: string, text: string): string | undefined {
  const trimmed = text.trim();
  if (format === "uuid") {
    const hex = trimmed.replace(/^[{(]|[})]$/g, "").replace(/^urn:uuid:/i, "");
    // The digits keep the case they were sent in: a uuid reads the same in either case, and a
    // key the server stores as sent (Iceberg's `Idempotency-Key`) is the text the caller meant.
    if (isUndashedUuid(hex)) return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(hex) && hex !== trimmed) return hex;
    return undefined;
  }
  if (format === "date") return isoDate(trimmed);
  return undefined;
}

/** Whether `text` is a uuid written without its dashes: exactly 32 hex digits. */
export function isUndashedUuid(text: string): boolean {
  return UNDASHED_UUID.test(text);
}

const UNDASHED_UUID = /^[0-9a-f]{32}$/i;

function isoDate(text: string): string | undefined {
  const yearFirst = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
  if (yearFirst) return valid(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  const dayOrMonthFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (!dayOrMonthFirst) return undefined;
  const [a, b, year] = [Number(dayOrMonthFirst[1]), Number(dayOrMonthFirst[2]), Number(dayOrMonthFirst[3])];
  // Only one of day/month and month/day can be a date: that one. Both (or neither): not determined.
  const dayFirst = a > 12 && b <= 12;
  const monthFirst = b > 12 && a <= 12;
  if (dayFirst) return valid(year, b, a);
  if (monthFirst) return valid(year, a, b);
  return undefined;
}

function valid(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
