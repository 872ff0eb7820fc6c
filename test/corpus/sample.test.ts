// The corpus in `npm test`: the sample of test/corpus/manifest.json (the smallest documents of
// every feature class, and every MCP snapshot in test/fixtures/mcp-tools/), judged by the same
// oracles as `npm run corpus` (judge-document.ts). What they find today is listed, cause by
// cause, in known-failures.json: a failure not listed turns this red; a listed one that no longer
// occurs is reported, to be dropped with `npm run corpus -- --update-known`.
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURES } from "./features.ts";
import { compareWithKnown, readKnownFailures } from "./known-failures.ts";
import { type ManifestEntry, readManifest } from "./manifest.ts";
import type { RunResult } from "./report.ts";
import { runCorpus } from "./run.ts";
import { MCP_SNAPSHOTS, ROOT } from "./sources.ts";

const manifest = readManifest();
const sample = manifest.entries.filter((entry) => entry.sample);
let results: RunResult[] = [];

// One worker process: vitest already runs other files beside this one on a 2-core machine.
beforeAll(async () => {
  results = await runCorpus(sample, { typecheck: true, workers: 1 });
  // The whole sample in one worker takes minutes on a loaded machine; no clock is asserted.
}, 3_600_000);

describe("the corpus manifest", () => {
  it("holds at least 300 API descriptions from at least 100 vendors, and every MCP snapshot", () => {
    expect(manifest.documents).toBeGreaterThanOrEqual(300);
    expect(manifest.vendors).toBeGreaterThanOrEqual(100);
    const snapshots = readdirSync(path.join(ROOT, MCP_SNAPSHOTS))
      .filter((file) => file.endsWith(".json"))
      .map((file) => `repository:${MCP_SNAPSHOTS}/${file}`);
    const listed = new Set(manifest.entries.map((entry) => entry.id));
    // A snapshot captured since the manifest was built: `npm run corpus -- --update-known` adds it.
    expect(snapshots.filter((id) => !listed.has(id))).toEqual([]);
    for (const entry of manifest.entries) {
      expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(entry.licence).not.toBe("");
    }
  });

  it("its sample covers every feature class some document has, and every MCP snapshot", () => {
    const present = new Set(manifest.entries.flatMap((entry) => entry.features));
    const covered = new Set(sample.flatMap((entry) => entry.features));
    expect(FEATURES.filter((feature) => present.has(feature) && !covered.has(feature))).toEqual([]);
    expect(sample.filter((entry) => entry.kind === "mcp").length).toBe(manifest.mcpServers);
  });
});

describe("the oracles over the sample", () => {
  it("judge every sample entry (no harness error: every pinned file is the one pinned)", () => {
    expect(results.map((result) => result.id)).toEqual(sample.map((entry: ManifestEntry) => entry.id));
    expect(results.filter((result) => "harnessError" in result)).toEqual([]);
  });

  it("find nothing that known-failures.json does not list; a listed failure now gone is reported", () => {
    const { added, fixed } = compareWithKnown(results, readKnownFailures());
    if (fixed.length > 0) console.log(`corpus sample: ${fixed.length} known failures no longer occur (npm run corpus -- --update-known):\n${fixed.join("\n")}`);
    expect(added).toEqual([]);
  });

  it("every refusal is an input error naming the file and the fix; every skip has a reason", () => {
    for (const result of results) {
      if ("harnessError" in result) continue;
      for (const line of result.refusal?.first ?? []) expect(line).toMatch(/^\S+\.json(#\S*)?: [\s\S]+\n {2}fix: \S/);
      for (const [cause, skip] of Object.entries(result.skips)) {
        expect(cause.trim()).not.toBe("");
        expect(skip.count).toBeGreaterThan(0);
      }
    }
  });

  it("judge instances: vendor examples and synthesized ones for every branch, checked by the generated guard", () => {
    const judged = results.filter((result): result is Exclude<RunResult, { harnessError: string }> => !("harnessError" in result));
    const instances = judged.reduce((sum, result) => sum + result.oracle.instances, 0);
    const examples = judged.reduce((sum, result) => sum + result.oracle.examples, 0);
    const tools = judged.reduce((sum, result) => sum + result.tools, 0);
    console.log(`corpus sample: ${judged.length} entries, ${tools} tools, ${instances} instances valid as written (${examples} vendor examples)`);
    // Every generated tool got at least one instance its schema as written accepts, or is named unjudged.
    expect(instances).toBeGreaterThan(tools);
    expect(examples).toBeGreaterThan(0);
  });
});
