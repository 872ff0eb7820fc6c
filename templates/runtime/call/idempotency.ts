// Idempotency keys follow the validated intent: SHA-256 over the tool name and the canonical
// JSON of the arguments that passed validation (object keys sorted, no whitespace). The same
// intent always gives the same key; a repaired payload gets its own key.
import { hash } from "node:crypto";

/** JSON text with object keys sorted at every level; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  // A copy with every object's keys inserted in sorted order, serialised by the native
  // JSON.stringify, is about twice as fast as building the text key by key. V8 enumerates
  // array-index keys ("0", "10") first, whatever their insertion order, and assigning
  // "__proto__" would set the copy's prototype, so a document with such a key is built by hand.
  const sorted = sortedCopy(value);
  return sorted === BY_HAND ? written(value) : JSON.stringify(sorted);
}

const BY_HAND = Symbol("a key the sorted copy cannot hold in order");
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = sortedCopy(value[i]);
      if (item === BY_HAND) return BY_HAND;
      copy[i] = item;
    }
    return copy;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === "__proto__" || ARRAY_INDEX.test(key)) return BY_HAND;
    const member = sortedCopy(record[key]);
    if (member === BY_HAND) return BY_HAND;
    copy[key] = member;
  }
  return copy;
}

function written(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(written).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${written(record[key])}`);
  return `{${members.join(",")}}`;
}

export function idempotencyKey(tool: string, args: unknown): string {
  return hash("sha256", canonicalJson([tool, args]), "hex");
}
