// A corpus entry for a document a test writes (package "repository": a file under the checkout),
// so the judge's tests run it through judgeDocument as the corpus runs a real one.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ManifestEntry } from "./manifest.ts";
import { ROOT } from "./sources.ts";

export function entryFor(dir: string, name: string, document: Record<string, unknown>): ManifestEntry {
  const file = path.join(dir, `${name}.json`);
  const bytes = Buffer.from(JSON.stringify(document, null, 2));
  writeFileSync(file, bytes);
  return {
    id: `repository:${name}`,
    kind: "openapi",
    package: "repository",
    version: "0",
    file: path.relative(ROOT, file),
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
    licence: "test",
    vendor: name,
    format: `openapi ${String(document.openapi)}`,
    operations: 1,
    features: [],
    sample: false,
  };
}
