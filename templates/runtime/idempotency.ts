// Idempotency keys follow the validated intent: SHA-256 over the tool name and the canonical
// JSON of the arguments that passed validation (object keys sorted, no whitespace). The same
// intent always gives the same key; a repaired payload gets its own key.
import { createHash } from "node:crypto";

/** JSON text with object keys sorted at every level; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(",")}}`;
}

export function idempotencyKey(tool: string, args: unknown): string {
  return createHash("sha256").update(canonicalJson([tool, args])).digest("hex");
}
