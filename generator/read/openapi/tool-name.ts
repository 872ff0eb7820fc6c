// Tool names every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`), from the operationId or, when
// there is none, from the method and path. Two operations that end up with one name are an
// error the user fixes by giving them distinct operationIds; toolguard never renames silently.
import { createHash } from "node:crypto";

const MAX_LENGTH = 64;

/** The provider-safe name for an operation. */
export function toolName(operationId: unknown, method: string, path: string): string {
  const raw = typeof operationId === "string" && operationId.trim() !== "" ? operationId : `${method}_${path.replace(/[{}]/g, "")}`;
  const safe =
    raw
      .replace(/[^a-zA-Z0-9_-]+/g, "_")
      .replace(/_{2,}/g, "_")
      .replace(/^_+|_+$/g, "") || method;
  if (safe.length <= MAX_LENGTH) return safe;
  // Too long: keep a readable prefix and make the rest a short hash of the full name, so two
  // long names sharing a prefix still differ.
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, 8);
  return `${safe.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`;
}
