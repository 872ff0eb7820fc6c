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

/**
 * The pieces joined this second: `,"startedAt":"` and the second's prefix, `000Z` where the
 * milliseconds go, and a tail (`","verdict":"ok","attempts":[{"raw":`), per tail. Cleared when the
 * second changes; at most `MAX_JOINED` tails (one per verdict, twice, as a rule).
 */
const JOINED = { second: Number.NaN, last: fixed(""), lastJoined: fixed(""), byTail: new Map<Uint8Array, Uint8Array>() };
const MAX_JOINED = 64;

/**
 * `,"startedAt":"<isoTime(ms)>` and then `tail`, for an integer `ms`: one piece per second and tail
 * with the milliseconds written over its zeros, not three copies around them. `keep`: the tail is
 * one of a fixed few (the caller's constants), so its piece may be kept for the second.
 */
export function writeStartedAt(out: LineWriter, ms: number, tail: Uint8Array, keep: boolean): void {
  if (!secondOf(ms)) {
    out.bytesOf(STARTED_AT);
    out.ascii(new Date(ms).toISOString());
    out.bytesOf(tail);
    return;
  }
  const milli = ms - CLOCK.second * 1000;
  if (!keep) {
    out.bytesOf(CLOCK.prefixBytes);
    out.decimal(milli, 3);
    out.byte(0x5a); // Z
    out.bytesOf(tail);
    return;
  }
  if (JOINED.second !== CLOCK.second) {
    JOINED.second = CLOCK.second;
    JOINED.byTail.clear();
    JOINED.last = fixed("");
  }
  let joined = JOINED.last === tail ? JOINED.lastJoined : JOINED.byTail.get(tail);
  if (joined === undefined) {
    joined = Buffer.concat([CLOCK.prefixBytes, fixed("000Z"), tail]);
    if (JOINED.byTail.size < MAX_JOINED) JOINED.byTail.set(tail, joined);
  }
  JOINED.last = tail;
  JOINED.lastJoined = joined;
  const at = out.length + CLOCK.prefixBytes.length;
  out.bytesOf(joined);
  out.decimalAt(at, milli, 3);
}
