// Which JSON Schema keywords the OpenAPI translator copies, recurses into, or must refuse. A
// keyword in no table is unknown: the operation using it is skipped, because an unknown keyword
// may be a misspelt assertion and toolguard never drops an assertion silently.

/** Assertions whose value is plain data, copied as they are. */
export const VALUE_ASSERTIONS: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "minContains",
  "maxContains",
]);

/** Keywords holding one subschema. */
export const SINGLE_SUBSCHEMA: ReadonlySet<string> = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
]);

/** Keywords holding an array of subschemas. */
export const SUBSCHEMA_ARRAY: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** Keywords holding a map of name to subschema. */
export const SUBSCHEMA_MAP: ReadonlySet<string> = new Set(["properties", "patternProperties", "dependentSchemas"]);

/** Annotations kept in the output: they never change what validates. */
export const KEPT_ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "contentMediaType",
  "contentEncoding",
]);

/**
 * Keywords left out of the output because they assert nothing about a request: OpenAPI's
 * serialisation hints, documentation links, and definition containers (whatever they hold is
 * reached through `$ref` and imported into the tool's own `$defs`).
 */
export const DROPPED_KEYWORDS: ReadonlySet<string> = new Set(["xml", "externalDocs", "$defs", "definitions", "$anchor", "contentSchema"]);

/**
 * Keywords that change how references resolve in ways toolguard cannot follow faithfully.
 * (`$recursiveRef`/`$dynamicRef` are followed where they resolve statically: recursive-refs.ts.)
 */
export const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set(["$id", "$vocabulary"]);

/** Anchors for `$recursiveRef`/`$dynamicRef`: read where those resolve, then left out. */
export const DYNAMIC_ANCHORS: ReadonlySet<string> = new Set(["$recursiveAnchor", "$dynamicAnchor"]);

/** What ajv's strict mode needs a `type` for: the type each keyword applies to. */
export const KEYWORD_TYPE: Readonly<Record<string, string>> = {
  properties: "object",
  required: "object",
  additionalProperties: "object",
  patternProperties: "object",
  propertyNames: "object",
  minProperties: "object",
  maxProperties: "object",
  dependentRequired: "object",
  dependentSchemas: "object",
  unevaluatedProperties: "object",
  items: "array",
  prefixItems: "array",
  contains: "array",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  minContains: "array",
  maxContains: "array",
  unevaluatedItems: "array",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
};

/** Keywords that combine subschemas at the same instance location. */
export const APPLICATORS: readonly string[] = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "const"];

/** 3.0 ignores every keyword beside `$ref`; these may stay there without changing meaning. */
export const REF_SIBLINGS_3_0: ReadonlySet<string> = new Set([
  "description",
  "title",
  "example",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "nullable",
  "default",
]);
