// JSON Pointers (RFC 6901) on the generator side: how errors, tables and readers name a place
// in a document. The escaping, splitting and lookup are the runtime's own
// (templates/runtime/json/json-pointer.ts), so a pointer the generator writes into a table is read
// back at run time by the same code.
import { escapeToken, pointerTokens, valueAt } from "../templates/runtime/json/json-pointer.ts";

export { escapeToken as pointerToken, pointerTokens, valueAt as resolvePointer };

/** Unescapes one reference token (`~1` -> `/`, `~0` -> `~`). */
export function decodeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Builds a JSON Pointer from reference tokens. */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join("");
}

/**
 * What a local `$ref` (`#` and a JSON Pointer, percent-encoded as a URI fragment: toolguard
 * writes `%` as `%25`) points at in `root`; undefined when it points nowhere or is malformed.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  try {
    return valueAt(root, decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
}
