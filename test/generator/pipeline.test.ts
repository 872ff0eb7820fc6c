// generator/speed/ only makes the pipeline faster: the cache, the precompiled files and the
// worker threads must give exactly the files that generate.ts's plain pipeline gives.
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../generator/config.ts";
import type { EmittedFile } from "../../generator/emit/runtime.ts";
import { generatePackage } from "../../generator/generate.ts";
import { GenerationCache } from "../../generator/speed/cache.ts";
import { generateSet } from "../../generator/speed/generate-set.ts";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

const repo = path.resolve(import.meta.dirname, "../..");
const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

function project(files: Record<string, unknown>): { config: ReturnType<typeof resolveConfig>; cacheDir: string } {
  const made = new TempProject(files);
  projects.push(made);
  if (!("schemas/a.json" in files)) cpSync(path.join(repo, "schemas"), path.join(made.dir, "schemas"), { recursive: true });
  return {
    config: resolveConfig({ sets: [{ schemas: "schemas", out: "out", extras: ["openai", "mcp"] }] }, undefined, made.dir),
    cacheDir: path.join(made.dir, ".cache"),
  };
}

const byPath = (files: readonly EmittedFile[]): Record<string, string> => Object.fromEntries(files.map((file) => [file.path, file.content]));

describe("the pipeline and its speed-ups", () => {
  it("the repository's schemas: plain, cached (empty, then full) and uncached runs give the same files", async () => {
    const { config, cacheDir } = project({});
    const set = config.sets[0]!;
    const plain = await generatePackage(set, config);
    const cache = new GenerationCache(cacheDir);
    const empty = await generateSet(set, config, cache);
    const full = await generateSet(set, config, new GenerationCache(cacheDir));
    const uncached = await generateSet(set, config);
    expect(plain.files.length).toBeGreaterThan(10);
    expect(plain.files.filter((file) => file.path.startsWith("extras/")).map((file) => file.path)).toEqual([
      "extras/mcp/caller.d.ts",
      "extras/mcp/caller.js",
      "extras/mcp/index.d.ts",
      "extras/mcp/index.js",
      "extras/mcp/standings.d.ts",
      "extras/mcp/standings.js",
      "extras/mcp/wording.d.ts",
      "extras/mcp/wording.js",
      "extras/openai/index.d.ts",
      "extras/openai/index.js",
      "extras/openai/stream.d.ts",
      "extras/openai/stream.js",
    ]);
    for (const run of [empty, full, uncached]) {
      expect(byPath(run.files)).toEqual(byPath(plain.files));
      expect(run.tools).toEqual(plain.tools);
    }
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("enough tools to be spread over worker threads give the same files", async () => {
    const files: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++)
      files[`schemas/${i === 0 ? "a" : `t${i}`}.json`] = mcpTool(`tool_${i}`, {
        type: "object",
        properties: { q: { type: "string", maxLength: i + 1 } },
        required: ["q"],
      });
    const { config } = project(files);
    const set = config.sets[0]!;
    const plain = await generatePackage(set, config);
    const pooled = await generateSet(set, config);
    expect(Object.keys(byPath(plain.files)).filter((file) => file.startsWith("tools/"))).toHaveLength(120);
    expect(byPath(pooled.files)).toEqual(byPath(plain.files));
  });
});
