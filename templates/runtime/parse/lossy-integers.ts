// Which integer literals of a text lost digits in `JSON.parse` (beyond 2^53): read only once the
// hazard walk (json-hazards.ts) saw a number that large.
import { stringEnd } from "./duplicate-keys.ts";

/**
 * Parsed values of the first `limit` integer literals in `text` whose digits `JSON.parse` could not keep. One pass
 * over the text: strings are skipped (a digit run inside a string is no number), and each number
 * token costs time linear in its length, whatever its digits (no regular expression that could
 * backtrack, no slicing per trailing zero, no big-integer conversion of more than 400 digits).
 */
export function lossyIntegers(text: string, limit: number): Set<number> {
  const lossy = new Set<number>();
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      if (losesDigits(text, i, end)) {
        lossy.add(Number(text.slice(i, end)));
        // Only the first few are reported; the rest of the text need not be read.
        if (lossy.size >= limit) break;
      }
      i = end - 1;
    }
  }
  return lossy;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** Whether the number token `text[from..to)` spells an integer that its double does not equal. */
function losesDigits(text: string, from: number, to: number): boolean {
  const token = text.slice(from, to);
  const parsed = Number(token);
  // Only an integer beyond 2^53 can have lost digits; anything else is decided here, cheaply.
  if (!Number.isFinite(parsed) || !Number.isInteger(parsed) || Number.isSafeInteger(parsed)) return false;
  let at = token.charCodeAt(0) === 0x2d ? 1 : 0;
  const dot = token.indexOf(".");
  const e = token.search(/[eE]/);
  const mantissaEnd = e === -1 ? token.length : e;
  const intPart = token.slice(at, dot === -1 ? mantissaEnd : dot);
  const fraction = dot === -1 ? "" : token.slice(dot + 1, mantissaEnd);
  const digits = intPart + fraction;
  let exponent = (e === -1 ? 0 : Number(token.slice(e + 1))) - fraction.length;
  let last = digits.length;
  while (last > 0 && digits.charCodeAt(last - 1) === 0x30) last--;
  exponent += digits.length - last;
  at = 0;
  while (at < last && digits.charCodeAt(at) === 0x30) at++;
  // A spelled fraction is not an integer literal; up to 15 significant digits always survive a
  // double; more than 400 digits would have overflowed (and is reported as infinite).
  const significant = last - at;
  if (exponent < 0 || significant <= 15 || significant + exponent > 400) return false;
  return BigInt(digits.slice(at, last) + "0".repeat(exponent)) !== BigInt(Math.abs(parsed));
}
