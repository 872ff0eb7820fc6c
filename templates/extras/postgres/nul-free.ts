// PostgreSQL's text cannot hold U+0000, and keys come from callers (identities, `keyOf`): a key
// with one is stored as its hash, which keeps it distinct and stable on every replica.
import { createHash } from "node:crypto";

export function nulFree(text: string): string {
  return text.includes("\u0000") ? `sha256:${createHash("sha256").update(text).digest("base64url")}` : text;
}
