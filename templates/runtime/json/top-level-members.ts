// The top-level members of a JSON object's text, found without parsing their values: for the
// ledger, which writes a call's arguments as its raw text with a reference field swapped for the
// resolved identifier, instead of parsing the text and serialising the result again.

/**
 * `text` (a JSON object that `JSON.parse` accepted) without the members named in `drop`, with
 * `append` (members' JSON text, without a leading comma) added at the end. `undefined` when the
 * text is not a plain case: a line break in it (the result must fit on one ledger line), a key
 * written with escapes, or anything but an object at the top. `JSON.parse` of the result gives
 * the same value as removing and adding those properties on `JSON.parse(text)`; only spacing,
 * the spelling of numbers and member order may differ.
 */
export function spliceMembers(text: string, drop: ReadonlySet<string>, append: string): string | undefined {
  if (text.includes("\n") || text.includes("\r")) return undefined;
  const length = text.length;
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b /* { */) return undefined;
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d /* } */) return `{${append}}`;
  // The members kept, as slices of the text between the dropped ones (most texts drop one).
  let kept = "";
  let keptFrom = at;
  let any = false;
  while (at < length) {
    const start = at;
    if (text.charCodeAt(at) !== 0x22 /* " */) return undefined;
    const keyEnd = text.indexOf('"', at + 1);
    if (keyEnd < 0) return undefined;
    const key = text.slice(at + 1, keyEnd);
    if (key.includes("\\")) return undefined;
    at = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(at) !== 0x3a /* : */) return undefined;
    at = skipValue(text, skipSpace(text, at + 1));
    if (at < 0) return undefined;
    const end = at;
    at = skipSpace(text, at);
    const next = text.charCodeAt(at);
    if (next !== 0x7d /* } */ && next !== 0x2c /* , */) return undefined;
    if (drop.has(key)) {
      // Flush the run of kept members before this one (it ends with the comma before `start`).
      if (keptFrom < start) {
        const run = text.slice(keptFrom, trimBack(text, keptFrom, start));
        if (run !== "") kept += any ? `,${run}` : run;
        any ||= run !== "";
      }
      keptFrom = next === 0x2c ? skipSpace(text, at + 1) : at;
      // No dropped key occurs again anywhere after this member (inside a string a quote is
      // escaped, so `"key"` cannot occur there): the rest of the text is kept as it is.
      if (next === 0x2c && noneFrom(text, drop, keptFrom)) {
        // Valid JSON: the text ends with the object's `}` and spaces.
        const run = text.slice(keptFrom, trimBack(text, keptFrom, trimBack(text, keptFrom, length) - 1));
        if (run !== "") kept += any ? `,${run}` : run;
        any ||= run !== "";
        return `{${kept}${any && append !== "" ? "," : ""}${append}}`;
      }
    }
    if (next === 0x7d) {
      const run = keptFrom < end ? text.slice(keptFrom, end) : "";
      if (run !== "") kept += any ? `,${run}` : run;
      any ||= run !== "";
      return `{${kept}${any && append !== "" ? "," : ""}${append}}`;
    }
    at = skipSpace(text, at + 1);
  }
  return undefined;
}

/** `end` moved back over spaces, tabs and commas, not before `from`. */
function trimBack(text: string, from: number, end: number): number {
  while (end > from) {
    const code = text.charCodeAt(end - 1);
    if (code !== 0x20 && code !== 0x09 && code !== 0x2c) break;
    end--;
  }
  return end;
}

function noneFrom(text: string, keys: ReadonlySet<string>, from: number): boolean {
  for (const key of keys) if (text.indexOf(`"${key}"`, from) >= 0) return false;
  return true;
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09) return at;
    at++;
  }
}

/** The index just past the value starting at `at`, or -1. Strings and nesting are skipped whole. */
function skipValue(text: string, at: number): number {
  let depth = 0;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === 0x22 /* " */) {
      at = skipString(text, at);
      if (at < 0) return -1;
      if (depth === 0) return at;
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      if (depth === 0) return at; // the end of the enclosing object: a scalar value ended before it
      depth--;
      if (depth === 0) return at + 1;
    } else if (code === 0x2c && depth === 0) return at;
    at++;
  }
  return -1;
}

/** The index just past the string starting at `at` (a quote), or -1. */
function skipString(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  while (quote >= 0) {
    // Escaped when preceded by an odd number of backslashes.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
