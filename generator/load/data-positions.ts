// Where a document holds data rather than schemas or OpenAPI objects. A `$ref` key inside data
// (an `enum` or `const` value, a `default`, an example, an `x-` extension's value) is a member of
// a value, never a reference, so no loader or reader follows it (issue 32: a dangling one refused
// the whole document). Keys of name maps (`properties`, `paths`, `responses`...) are names, never
// keywords: a property named `default` and a `default` response are no data.
//
// Every pass that follows `$ref`s (the bundlers, the broken-$ref locator, localizeSchema) asks
// `childPlace`, so they all agree on what is data.

/**
 * What an object's keys are: keywords (a schema, an OpenAPI object), names (of a map), the
 * sections of `components`, the names of Example Objects, or an Example Object's fields.
 */
export type Place = "keywords" | "names" | "components" | "example-names" | "example";

/** Keywords (of a schema or an OpenAPI object) whose object value maps names to schemas or objects. */
const NAME_MAPS: ReadonlySet<string> = new Set([
  // JSON Schema
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  // OpenAPI 3.x (and Swagger 2.0's top-level maps)
  "paths",
  "webhooks",
  "callbacks",
  "responses",
  "content",
  "headers",
  "encoding",
  "links",
  "variables",
  "securitySchemes",
  "securityDefinitions",
  "parameters",
  "scopes",
  "mapping",
]);

/** Keywords whose whole value is data, whatever it holds. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["enum", "const", "default", "example"]);

/**
 * What the value under `key` is, in an object whose keys are `place`: `"data"` (never walked for
 * references), or the place of its own keys. An array's items have the array's place.
 */
export function childPlace(place: Place, key: string, value: unknown): Place | "data" {
  switch (place) {
    case "names":
      return "keywords"; // a named schema, path item, response...
    case "example-names":
      return "example"; // an Example Object, or a `$ref` to one
    case "example":
      return key === "value" || key.startsWith("x-") ? "data" : "keywords";
    case "components":
      if (key.startsWith("x-")) return "data";
      return key === "examples" ? "example-names" : "names";
    case "keywords":
      if (key.startsWith("x-") || DATA_KEYWORDS.has(key)) return "data";
      // A schema's `examples` is an array of values (2020-12); OpenAPI's maps names to Example Objects.
      if (key === "examples") return Array.isArray(value) ? "data" : "example-names";
      if (key === "components") return "components";
      return NAME_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value) ? "names" : "keywords";
  }
}
