// Issue 31: a failed attempt's envelope asks `Redactor.holdsSecret` of its parsed value whether
// any value must be hidden before a message quotes it (call/attempt.ts `shownToModel`), instead of
// scanning the text for secret names. It must say yes exactly where redacting a copy would replace
// something: by a key's name (as words, as an end, the user's own names), by a pointer pattern
// (the user's, `writeOnly`, header and cookie parameters), in objects and in arrays, at any depth,
// and it must leave the value as it was. Its answers per key are kept, so it is asked twice.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/simulate/random.ts";
import type { JsonValue } from "../../templates/runtime/contract/tool-spec.ts";
import { Redactor } from "../../templates/runtime/ledger/redact.ts";

const KEYS = [
  "note",
  "name",
  "max_tokens",
  "spin",
  "apiKey",
  "api:key",
  "password_confirmation",
  "user_pin",
  "token",
  "cards",
  "login",
  "session",
  "tenant",
  "a",
  "b",
  "0",
  "1",
];

/** A seeded JSON value of keys from `KEYS` (and now and then a fresh one, to pass the memo's bound). */
function values(count: number, seed: number): JsonValue[] {
  const next = mulberry32(seed);
  let fresh = 0;
  const key = (): string => (next() < 0.1 ? `k${fresh++}` : (KEYS[Math.floor(next() * KEYS.length)] as string));
  const value = (depth: number): JsonValue => {
    const roll = next();
    if (depth >= 4 || roll < 0.35) return roll < 0.1 ? null : roll < 0.2 ? Math.floor(next() * 100) : "text";
    if (roll < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, () => [key(), value(depth + 1)]));
  };
  return Array.from({ length: count }, () => value(0));
}

const SCHEMA = { type: "object", properties: { login: { type: "string", writeOnly: true } } };
const REDACTORS: Record<string, Redactor> = {
  "the default names": new Redactor({ type: "object" }),
  "names, pointers, writeOnly and a header parameter": new Redactor(SCHEMA, { fields: ["tenant"], pointers: ["/cards/*", "/a/0/b"] }, undefined, ["/session"]),
  "pointers only, no names": new Redactor({ type: "object" }, { replaceDefaults: true, pointers: ["/*/1", "/b"] }),
};

describe("holdsSecret", () => {
  for (const [label, redactor] of Object.entries(REDACTORS)) {
    it(`says yes exactly where redacting a copy replaces something: ${label}`, () => {
      let secret = 0;
      for (const value of values(4000, 31)) {
        const before = JSON.stringify(value);
        const replaced = redactor.valueInPlace(structuredClone(value)) > 0;
        expect(redactor.holdsSecret(value), before).toBe(replaced);
        expect(redactor.holdsSecret(value), `asked again: ${before}`).toBe(replaced);
        expect(JSON.stringify(value)).toBe(before);
        if (replaced) secret++;
      }
      // Both answers occur often enough to be tested.
      expect(secret).toBeGreaterThan(400);
      expect(secret).toBeLessThan(3600);
    });
  }

  it("reads a secret under an array item and under a located key", () => {
    const redactor = REDACTORS["names, pointers, writeOnly and a header parameter"] as Redactor;
    expect(redactor.holdsSecret({ a: [{ b: 1 }] })).toBe(true);
    expect(redactor.holdsSecret({ a: [{ c: 1 }, { b: 1 }] })).toBe(false);
    expect(redactor.holdsSecret({ cards: [] })).toBe(false);
    expect(redactor.holdsSecret({ cards: ["4111"] })).toBe(true);
    expect(redactor.holdsSecret({ note: [{ deep: { login: "x" } }] })).toBe(false);
    expect(redactor.holdsSecret({ login: "x" })).toBe(true);
    expect(redactor.holdsSecret({ session: "x" })).toBe(true);
    expect(redactor.holdsSecret({ note: [[{ my_tenant: 1 }]] })).toBe(true);
  });
});
