// OpenAPI `format` values and what they become in 2020-12. Formats that name a number width turn
// into bounds; the standard string formats stay `format` (the emitter's ajv knows them all:
// KEPT_FORMATS); anything else is not checked, and the schema says so in a `$comment`.

/**
 * Formats kept as `format`: JSON Schema's own. The emitter's ajv knows every one (it asserts
 * those templates/runtime/validate/formats.ts checks and treats the rest as annotations).
 */
export const KEPT_FORMATS: readonly string[] = [
  "date",
  "time",
  "date-time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uri-template",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
];

const kept = new Set(KEPT_FORMATS);

/** Base64 as RFC 4648 writes it: groups of four, `=` padding only at the end. */
export const BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

// int64 is bounded at JavaScript's safe integers, not 2^63: a larger number parsed from the
// model's JSON would silently change before it reached the API.
const INTEGER_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-2147483648, 2147483647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Formats that only describe how a value is shown or stored; they assert nothing. */
const DESCRIPTIVE_FORMATS = new Set(["float", "double", "password", "binary"]);

/** Writes the translation of `format` into `out` (which already holds the node's other keywords). */
export function translateFormat(format: string, out: Record<string, unknown>): void {
  const bounds = INTEGER_BOUNDS[format];
  if (bounds) {
    const [low, high] = bounds;
    // Only where the schema leaves a side open, or sets a looser bound than the width allows.
    if (out.exclusiveMinimum === undefined && (typeof out.minimum !== "number" || out.minimum < low)) out.minimum = low;
    if (out.exclusiveMaximum === undefined && (typeof out.maximum !== "number" || out.maximum > high)) out.maximum = high;
    return;
  }
  if (kept.has(format)) {
    out.format = format;
    return;
  }
  if (format === "byte") {
    if (out.pattern === undefined) out.pattern = BASE64_PATTERN;
    out.contentEncoding = "base64";
    return;
  }
  if (DESCRIPTIVE_FORMATS.has(format)) return;
  const note = `format "${format}" is not checked by toolguard`;
  out.$comment = typeof out.$comment === "string" ? `${out.$comment}; ${note}` : note;
}
