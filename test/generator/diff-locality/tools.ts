// The tools the diff-locality battery runs on: the example tools in schemas/ and three of
// GitHub's (from the pinned @octokit/openapi), chosen for enums, bounds and definitions, one of
// them the repository-ruleset tool whose rule union compiles into functions of their own.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ToolDescription } from "../../../generator/ir.ts";
import { readSchemaSet } from "../../../generator/read/index.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
export const GITHUB_TOOLS = ["code-security_create-configuration", "dependabot_update-alert", "repos_create-repo-ruleset"];

export async function exampleTools(): Promise<readonly ToolDescription[]> {
  return (await readSchemaSet(path.join(ROOT, "schemas"), { allowNetwork: false, strict: false })).tools;
}

export async function githubTools(): Promise<readonly ToolDescription[]> {
  const require = createRequire(import.meta.url);
  const spec = path.join(path.dirname(require.resolve("@octokit/openapi/package.json")), "generated/api.github.com.json");
  const dir = mkdtempSync(path.join(tmpdir(), "toolguard-github-"));
  try {
    copyFileSync(spec, path.join(dir, "api.github.com.json"));
    const { tools } = await readSchemaSet(dir, { allowNetwork: false, strict: false });
    return GITHUB_TOOLS.map((name) => {
      const tool = tools.find((entry) => entry.name === name);
      if (!tool) throw new Error(`GitHub's description has no tool ${name}`);
      return tool;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function localityTools(): Promise<readonly ToolDescription[]> {
  return [...(await exampleTools()), ...(await githubTools())];
}
