// The normal form near misses are keyed by. The generator keys the hint table with it and the
// explainer looks received values up with it, so both sides must use this one function.

/**
 * `" eur"`, `"Eur"` and `"e_u_r"` all normalise to `"eur"`: lower case, without white space,
 * `_` or `-` anywhere (the ends' white space with the rest: `\s` is the set `trim` removes).
 * A text already in that form (ASCII without capitals, spaces or separators) is its own normal
 * form, returned without a copy: the failure path asks for it several times per value.
 */
export function normaliseNearMiss(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Capitals, `-`, `_`, controls and white space, and anything past ASCII take the full route.
    if (code <= 32 || code >= 127 || (code >= 65 && code <= 90) || code === 45 || code === 95) return text.toLowerCase().replace(/[\s_-]+/g, "");
  }
  return text;
}
