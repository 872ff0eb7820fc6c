// JSON Pointers (RFC 6901) on the generator side: how errors, tables and readers name a place
// in a document. The escaping, splitting and lookup are the runtime's own
// (templates/runtime/json/json-pointer.ts), so a pointer the generator writes into a table is read
// back at run time by the same code.
import { escapeToken, localRefTarget, pointerTokens, valueAt } from "../templates/runtime/json/json-pointer.ts";

export { escapeToken as pointerToken, localRefTarget as resolveLocalRef, pointerTokens, valueAt as resolvePointer };

/** Unescapes one reference token (`~1` -> `/`, `~0` -> `~`). */
export function decodeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Builds a JSON Pointer from reference tokens. */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join("");
}
