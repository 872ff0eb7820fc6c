// The helpers ajv's standalone validators call at run time. ajv's ESM output still loads its
// own with `require(`, which plain ESM cannot do; the generator points those calls here.

/** A UTF-16 high surrogate: the only code unit that can start a two-unit code point. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Length in Unicode code points, as JSON Schema's `maxLength`/`minLength` count it. */
export function ucs2length(text: string): number {
  // Nearly every string is free of surrogate pairs; the engine's own scan proves it far faster
  // than a loop here (a 300-character string: ~10 ns against ~450), and then every code unit is
  // one code point.
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    length++;
  }
  return length;
}

/** Structural equality of JSON values, for `const`, `enum` and `uniqueItems`. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!equal(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
