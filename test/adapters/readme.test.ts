// The README's agent loops are the files in examples/adapters/, which `npm run typecheck`
// compiles against the real SDKs (also under exactOptionalPropertyTypes, as a reader's project
// may be set: tsconfig.examples.json) and the other tests here run, streamed and not: this takes
// the loops out of the README's markdown and holds them identical to those files, so every loop a
// reader copies is one that compiles and works.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const EXAMPLES = path.join(REPO, "examples/adapters");
const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
const section = readme.slice(
  readme.indexOf("## Wiring it into an agent runtime"),
  readme.indexOf("\n## ", readme.indexOf("## Wiring it into an agent runtime") + 3),
);
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

describe("the README's agent loops", () => {
  const files = readdirSync(EXAMPLES)
    .filter((file) => file.endsWith(".ts"))
    .sort();

  it.each(files)("shows examples/adapters/%s exactly", (file) => {
    expect(blocks).toContain(readFileSync(path.join(EXAMPLES, file), "utf8"));
  });

  it("has no TypeScript block in that section that is not one of those files", () => {
    const sources = new Set(files.map((file) => readFileSync(path.join(EXAMPLES, file), "utf8")));
    expect(blocks.filter((block) => !sources.has(block))).toEqual([]);
    expect(blocks).toHaveLength(files.length);
  });

  it("is type-checked as a strict reader's project would be: exactOptionalPropertyTypes on", () => {
    const config = JSON.parse(readFileSync(path.join(REPO, "tsconfig.examples.json"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
    expect(config).toMatchObject({ compilerOptions: { exactOptionalPropertyTypes: true }, include: ["examples/adapters"] });
    const scripts = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).scripts;
    expect(scripts.typecheck).toContain("tsc -p tsconfig.examples.json --noEmit");
  });

  it("covers every SDK", () => {
    expect(files).toEqual(["ai-sdk.ts", "anthropic.ts", "mcp-server.ts", "openai-agents.ts", "openai-chat.ts", "openai-responses.ts"]);
  });
});
