// Where a text repeats a key within one object: the character scan behind the `duplicate_key`
// hazard (json-hazards.ts), run only when the text spells more key tokens than the parsed value
// holds keys.
import { escapeToken } from "../json/json-pointer.ts";

/** Index of the quote that closes the string opening at `start`. */
export function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const at = text.indexOf('"', i);
    if (at === -1) return text.length;
    // The quote is escaped when an odd number of backslashes precede it.
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
    i = at + 1;
  }
}

interface Frame {
  readonly keys: Set<string> | undefined;
  token: string | number;
  expectKey: boolean;
}

/** Pointers of the first `limit` repeated keys in `text`, which must be valid JSON. */
export function findDuplicateKeys(text: string, limit: number): string[] {
  const found: string[] = [];
  const frames: Frame[] = [];
  const n = text.length;
  let nextSlash = text.indexOf("\\");
  for (let i = 0; i < n && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      // Native searches find the closing quote; a character loop here cost ~20x JSON.parse on
      // a text that is one long string of escaped quotes.
      i = stringEnd(text, start);
      // The next backslash, searched again only once passed: one search per backslash, not per string.
      if (nextSlash !== -1 && nextSlash < start) nextSlash = text.indexOf("\\", start);
      const escaped = nextSlash !== -1 && nextSlash < i;
      const top = frames[frames.length - 1];
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.keys.has(key)) found.push(`${pointerOf(frames, frames.length - 1)}/${escapeToken(key)}`);
        else top.keys.add(key);
        top.token = key;
        top.expectKey = false;
      }
    } else if (c === 0x7b) frames.push({ keys: new Set(), token: "", expectKey: true });
    else if (c === 0x5b) frames.push({ keys: undefined, token: 0, expectKey: false });
    else if (c === 0x7d || c === 0x5d) frames.pop();
    else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.keys) top.expectKey = true;
      else if (top) top.token = (top.token as number) + 1;
    }
  }
  return found;
}

function pointerOf(frames: readonly Frame[], length: number): string {
  let pointer = "";
  for (let i = 0; i < length; i++) pointer += `/${escapeToken((frames[i] as Frame).token)}`;
  return pointer;
}
