// A `$ref` as the OpenAPI translator reads it (translate-schema.ts): the local pointer it names,
// refused with its place when it leaves the document or names an anchor, and the keywords
// written beside a 3.0 `$ref` that 3.0 ignores.
import { REF_SIBLINGS_3_0 } from "./schema-keywords.ts";
import { Untranslatable } from "./untranslatable.ts";

/** Keywords beside a 3.0 `$ref` that 3.0 ignores and that could change what validates. */
export function refSiblings(source: Record<string, unknown>): string[] {
  return Object.keys(source).filter((key) => key !== "$ref" && !key.startsWith("x-") && !REF_SIBLINGS_3_0.has(key));
}

/** The document-local pointer `ref` names (`#/components/...`), or an Untranslatable at `at`. */
export function refPointer(ref: string, at: string): string {
  if (!ref.startsWith("#")) throw new Untranslatable(at, `$ref "${ref}" points outside the document; load the document with loadDocument so it is bundled`);
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment !== "" && !fragment.startsWith("/")) throw new Untranslatable(at, `$ref "${ref}" names an anchor, which toolguard does not resolve`);
  return fragment;
}
