// The config file: TypeScript (with defineConfig), JavaScript or JSON; several schema sets,
// each its own package; sensible defaults without one.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultPackageName } from "../../generator/config.ts";
import { REPO, TempProject, mcpTool } from "../helpers/temp-project.ts";

let project: TempProject;
afterEach(() => project.remove());

describe("config", () => {
  it("works without a config: schemas/ becomes generated/", async () => {
    project = new TempProject({ "schemas/a.json": mcpTool("alpha") });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(JSON.parse(project.read("generated/package.json")).name).toBe("generated-tools");
  });

  it("names a package after its out folder without repeating `tools`", async () => {
    project = new TempProject({ "schemas/a.json": mcpTool("alpha"), "toolguard.config.json": { sets: [{ schemas: "schemas", out: "packages/tools" }] } });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(JSON.parse(project.read("packages/tools/package.json")).name).toBe("tools");
  });

  it.each([
    ["generated", "generated-tools"],
    ["/p/packages/tools", "tools"],
    ["agent-tools", "agent-tools"],
    ["Billing API", "billing-api-tools"],
    ["_private", "private-tools"],
    ["___", "tools"],
  ])("default package name for out %s: %s", (out, expected) => {
    expect(defaultPackageName(out)).toBe(expected);
  });

  it("reads toolguard.config.ts with defineConfig, one package per set", async () => {
    project = new TempProject({
      "tools/a.json": mcpTool("alpha"),
      "billing/b.yaml": "name: beta\ninputSchema:\n  type: object\n",
      "toolguard.config.ts": `import { defineConfig } from ${JSON.stringify(path.join(REPO, "generator/index.ts"))};
export default defineConfig({
  sets: [
    { schemas: "tools", out: "packages/tools", packageName: "@acme/agent-tools" },
    { schemas: "billing", out: "packages/billing" },
  ],
});
`,
    });
    const result = await project.run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(project.read("packages/tools/package.json")).name).toBe("@acme/agent-tools");
    expect(project.read("packages/tools/index.js")).toMatch(/alpha/);
    expect(JSON.parse(project.read("packages/billing/package.json")).name).toBe("billing-tools");
    expect(project.read("packages/billing/index.js")).toMatch(/beta/);
  });

  it("generates nothing when one set of several is broken", async () => {
    project = new TempProject({
      "tools/a.json": mcpTool("alpha"),
      "billing/b.json": "{",
      "toolguard.config.json": {
        sets: [
          { schemas: "tools", out: "out/tools" },
          { schemas: "billing", out: "out/billing" },
        ],
      },
    });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(() => project.snapshot("out")).toThrow();
  });

  it.each([
    [{ sets: [] }, /"sets" must be a non-empty array/],
    [{ sets: [{ schemas: "s" }] }, /sets\[0\]\.out must name a folder/],
    [{ sets: [{ schemas: "s", out: "o", packageName: "Not A Name" }] }, /packageName must be a valid npm package name/],
    [{ allowNetwork: "yes" }, /"allowNetwork" must be true or false/],
    [
      {
        sets: [
          { schemas: "a", out: "o" },
          { schemas: "b", out: "o" },
        ],
      },
      /two sets write to the same folder/,
    ],
    [[], /the config must be an object/],
  ])("refuses %j", async (config, message) => {
    project = new TempProject({ "toolguard.config.json": config });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("names a config that fails to load", async () => {
    project = new TempProject({ "toolguard.config.mjs": "export default {;" });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/toolguard\.config\.mjs: could not load/);
  });
});
