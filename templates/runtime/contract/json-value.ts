// The values the runtime reads and writes as JSON: what `JSON.parse` can produce.

/** Any value `JSON.parse` can produce. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
