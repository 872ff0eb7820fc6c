// Coercion runs only after a failed validation (attempt.ts), and walks the whole coercion plan.
// It can only turn a string into a number or boolean where the schema rejects strings; a string
// there always makes the validator (compiled with allErrors) report a `type` error at that place,
// or, inside a combinator, the combinator's error. So when every error is one of the keywords
// below, which judge a value already of the right type, the walk would find nothing to coerce:
// it is skipped, and the attempt's result is the same. The one-mistake envelope (a lower-case
// currency) spent ~5% of its time in that walk.

/** Keywords whose failure never hides a type mismatch below them. */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  "enum",
  "const",
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "minItems",
  "maxItems",
  "uniqueItems",
]);

/** Whether coercing could change anything, given the validator's errors. */
export function coercionMayHelp(errors: readonly { readonly keyword: string }[] | null | undefined): boolean {
  if (!errors || errors.length === 0) return true;
  for (const error of errors) if (!VALUE_KEYWORDS.has(error.keyword)) return true;
  return false;
}
