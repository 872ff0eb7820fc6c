// Which JSON Schema dialect a schema is written in. OpenAPI 3.0 has its own (nullable, boolean
// exclusive bounds); 3.1 and 3.2 default to 2020-12 plus OpenAPI's vocabulary, and may declare another
// with `jsonSchemaDialect` or a schema's `$schema`.

export type SchemaDialect = "oas30" | "2020-12" | "draft-07";

const DIALECTS: readonly (readonly [RegExp, SchemaDialect])[] = [
  // The OpenAPI base dialects: 2020-12 with OpenAPI's annotations (3.2's adds none that assert).
  [/^https:\/\/spec\.openapis\.org\/oas\/3\.[12]\/dialect\//, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft-0[467]\/schema#?$/, "draft-07"],
];

/** The dialect a `$schema` URI names, or `undefined` when toolguard does not know it. */
export function dialectOf(uri: string): SchemaDialect | undefined {
  return DIALECTS.find(([pattern]) => pattern.test(uri))?.[1];
}
