// The cheap upper bound on the keys a JSON text spells, which rules out a repeated key without
// reading the text character by character (json-hazards.ts).

/**
 * Counts `"…":` key tokens in the text: an upper bound on the keys it spells, because every key
 * ends in an unescaped quote followed by a colon. Inside a string every quote is escaped, so a
 * string value can add at most one token (its opening quote followed by a colon), whatever it
 * holds: a text cannot make many tokens cheaply, and the character scan (duplicate-keys.ts) stays rare.
 */
export function keyTokens(text: string): number {
  let count = 0;
  let at = text.indexOf(":");
  while (at !== -1) {
    let before = at - 1;
    let c = text.charCodeAt(before);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(--before);
    if (c === 0x22) {
      // Escaped when an odd number of backslashes precede it (each run is read once: it lies
      // between this colon and the previous one).
      let slashes = 0;
      while (text.charCodeAt(before - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) count++;
    }
    at = text.indexOf(":", at + 1);
  }
  return count;
}
