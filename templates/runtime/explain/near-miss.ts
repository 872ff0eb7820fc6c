// The normal form near misses are keyed by. The generator keys the hint table with it and the
// explainer looks received values up with it, so both sides must use this one function.

/** `" eur"`, `"Eur"` and `"e_u_r"` all normalise to `"eur"`. */
export function normaliseNearMiss(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
}
