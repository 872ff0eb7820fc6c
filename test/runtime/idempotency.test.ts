// The idempotency key hashes canonical JSON. Its fast path (a key-sorted copy through the
// native JSON.stringify) must give the same text as sorting by hand, including for the keys
// V8 would reorder (array indices) or treat specially ("__proto__").
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalJson } from "../../templates/runtime/call/idempotency.ts";

function byHand(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(byHand).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${byHand(record[key])}`)
    .join(",")}}`;
}

describe("canonicalJson", () => {
  it.each([
    ['{"b":1,"a":{"d":[{"z":0,"y":1}],"c":null}}', '{"a":{"c":null,"d":[{"y":1,"z":0}]},"b":1}'],
    ['{"b":1,"10":2,"2":3}', '{"10":2,"2":3,"b":1}'],
    ['{"x":{"__proto__":{"polluted":true},"a":1}}', '{"x":{"__proto__":{"polluted":true},"a":1}}'],
    ['["\\u2028",-0,1e21,"\\ud800"]', '["\u2028",0,1e+21,"\\ud800"]'],
  ])("%s -> %s", (text, canonical) => {
    expect(canonicalJson(JSON.parse(text))).toBe(canonical);
  });

  it("matches sorting by hand on arbitrary JSON", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => canonicalJson(value) === byHand(value)));
  });
});
