// A parameter described by `content` (OpenAPI's alternative to `schema`, as CMS and data APIs
// describe a JSON `filter`) travels as the text of its media type: the JSON text of the value,
// which the parameter's location then percent-encodes like any string (`filter=%7B%22a%22%3A1%7D`).
// The generator accepts JSON media types only (generator/read/openapi/arguments-schema.ts).
import type { HttpParameter } from "../contract/tool-spec.ts";

/** The value as the request carries it: JSON text for a `content` parameter, else the value itself. */
export function wireValue(parameter: HttpParameter, value: unknown): unknown {
  return parameter.contentType === undefined ? value : JSON.stringify(value);
}
