// Which keywords only annotate, and which schemas are nothing but a union: shared by the
// comparisons of single keywords and of unions.
import type { Schema } from "../schema-walk.ts";

/** Keywords that only inform the reader (the model, a person): never change what passes. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "examples",
  "example",
  "default",
  "deprecated",
  "$comment",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "xml",
  "discriminator",
  "contentMediaType",
  "contentEncoding",
]);

/** An annotation keyword, or an `x-` extension (but toolguard's reference marker, compared as references). */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || (keyword.startsWith("x-") && keyword !== "x-toolguard-reference");
}

/** A schema that is an `anyOf`/`oneOf` and nothing else but annotations and definitions. */
export function isBareUnion(schema: Schema): boolean {
  if (!Array.isArray(schema.anyOf) && !Array.isArray(schema.oneOf)) return false;
  return Object.keys(schema).every(
    (keyword) =>
      keyword === "anyOf" || keyword === "oneOf" || keyword === "$schema" || keyword === "$defs" || keyword === "definitions" || isAnnotation(keyword),
  );
}
