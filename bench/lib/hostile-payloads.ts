// Argument texts an attacker can send through prompt injection, each built for a given size so
// that the cost of a guarded call can be compared with JSON.parse on the same text (the bench's
// hostile figure) and its growth checked by doubling the size (test/hostile/growth.test.ts).
// Every text stays under the default 1 MiB cap at the sizes used, and each targets one part of
// the guard: the hazard scan, uniqueItems, key handling, the depth limit, the explainer.

/** The schema of the tool the payloads are sent to: open where the payloads need room. */
export const HOSTILE_SCHEMA = {
  type: "object",
  properties: {
    n: { type: "number" },
    s: { type: "string" },
    objects: { type: "array", uniqueItems: true, items: { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } } },
    anything: { type: "array", uniqueItems: true },
    nested: { type: "array", uniqueItems: true, items: { type: "array" } },
    closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    numbers: { type: "array", items: { type: "number" } },
    deep: {},
  },
  additionalProperties: true,
} as const;

const digits = (count: number): string => `1${"0".repeat(Math.max(0, count - 2))}5`;

/** Builds one payload of about `size` characters. */
export type PayloadBuilder = (size: number) => string;

export const HOSTILE_PAYLOADS: Readonly<Record<string, PayloadBuilder>> = {
  /** The case: one overflowing number makes the hazard scan read the whole text. */
  "digit run in a string, with 1e400": (size) => `{"n": 1e400, "s": "${digits(size)}"}`,
  "zeros after a decimal point, with 1e400": (size) => `{"n": 1e400, "s": "0.${"0".repeat(size)}"}`,
  // From 2 ** 53, the first integer past Number.MAX_SAFE_INTEGER, in steps a double still holds exactly.
  "many unsafe integers": (size) =>
    `{"deep": [${Array.from({ length: Math.floor(size / 20) }, (_, i) => 2 ** 53 + i * 4)
      .map((n) => `${n}00`)
      .join(",")}]}`,
  "long unsafe integer, zeros, in a string and as a number": (size) => `{"n": 1${"0".repeat(300)}, "s": "1${"0".repeat(size)}1"}`,
  "lone surrogates": (size) => `{"s": "${"\\ud800".repeat(Math.floor(size / 6))}"}`,
  /** uniqueItems over objects: distinct items, so a pairwise check compares every pair. */
  "distinct objects under uniqueItems": (size) => `{"objects": [${Array.from({ length: Math.floor(size / 16) }, (_, i) => `{"a":${i},"b":"x"}`).join(",")}]}`,
  "distinct mixed items under uniqueItems": (size) =>
    `{"anything": [${Array.from({ length: Math.floor(size / 12) }, (_, i) => (i % 3 === 0 ? `{"k":${i}}` : i % 3 === 1 ? `[${i}]` : `"${i}"`)).join(",")}]}`,
  "distinct arrays of equal prefix under uniqueItems": (size) =>
    `{"nested": [${Array.from({ length: Math.floor(size / 14) }, (_, i) => `[1,2,3,${i}]`).join(",")}]}`,
  "many keys in an open object": (size) => `{${Array.from({ length: Math.floor(size / 10) }, (_, i) => `"k${i}":${i}`).join(",")}}`,
  "many unknown keys in a closed object": (size) => `{"closed": {${Array.from({ length: Math.floor(size / 10) }, (_, i) => `"k${i}":${i}`).join(",")}}}`,
  "repeated key": (size) => `{"deep": {${Array.from({ length: Math.floor(size / 8) }, () => `"k":1`).join(",")}}}`,
  "keys that look like key tokens in strings": (size) => `{"s": "${'\\":'.repeat(Math.floor(size / 3))}"}`,
  "nesting at the limit, many times": (size) =>
    `{"deep": [${Array.from({ length: Math.max(1, Math.floor(size / 130)) }, () => "[".repeat(62) + "]".repeat(62)).join(",")}]}`,
  "nesting past the limit": (size) => `{"deep": ${"[".repeat(Math.floor(size / 2))}${"]".repeat(Math.floor(size / 2))}}`,
  "truncated text": (size) => `{"s": "${"a".repeat(size)}`,
  /** Every item a numeric string the allowlist coerces: one coercion per four characters. */
  "numeric strings to coerce": (size) => `{"numbers": [${Array.from({ length: Math.floor(size / 4) }, (_, i) => `"${i % 10}"`).join(",")}]}`,
};
