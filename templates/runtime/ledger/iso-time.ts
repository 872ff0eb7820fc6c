// Entry times as ISO 8601 text (`startedAt`), and as the line's bytes. Entries written together
// share their second (and mostly their millisecond), so the date and time are formatted once per
// second and only the milliseconds per entry; `toISOString` was a tenth of serialising an entry.
import { fixed, type LineWriter } from "./line-writer.ts";

/** The second formatted last, and the time whose text was made last. */
const CLOCK = {
  second: Number.NaN,
  /** `YYYY-MM-DDTHH:MM:SS.` of `second`. */
  prefix: "",
  /** `,"startedAt":"` and `prefix`, as the line's bytes. */
  prefixBytes: fixed(""),
  lastMs: Number.NaN,
  lastText: "",
};

/** Makes `CLOCK.second` the second of `ms`; false for a time whose ISO form is not 24 characters (years past 9999). */
function secondOf(ms: number): boolean {
  const second = Math.floor(ms / 1000);
  if (second === CLOCK.second) return true;
  const iso = new Date(ms).toISOString();
  if (iso.length !== 24) return false;
  CLOCK.second = second;
  CLOCK.prefix = iso.slice(0, 20);
  CLOCK.prefixBytes = fixed(`,"startedAt":"${CLOCK.prefix}`);
  return true;
}

/** `new Date(ms).toISOString()`, for an integer `ms`. */
export function isoTime(ms: number): string {
  if (ms === CLOCK.lastMs) return CLOCK.lastText;
  if (!secondOf(ms)) return new Date(ms).toISOString();
  const milli = ms - CLOCK.second * 1000;
  CLOCK.lastMs = ms;
  return (CLOCK.lastText = `${CLOCK.prefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`);
}

const STARTED_AT = fixed(',"startedAt":"');

/** `,"startedAt":"<isoTime(ms)>`, the closing quote left to what follows, for an integer `ms`. */
export function writeStartedAt(out: LineWriter, ms: number): void {
  if (!secondOf(ms)) {
    out.bytesOf(STARTED_AT);
    out.ascii(new Date(ms).toISOString());
    return;
  }
  out.bytesOf(CLOCK.prefixBytes);
  out.decimal(ms - CLOCK.second * 1000, 3);
  out.byte(0x5a); // Z
}
