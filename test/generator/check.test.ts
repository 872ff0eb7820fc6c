// `toolguard check` fails, naming the file and showing a diff, when the output on disk is not
// what generation would write: edited, missing or extra files, or a schema changed since.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";

let project: TempProject;
beforeEach(async () => {
  project = new TempProject({ "schemas/a.json": mcpTool("alpha"), "schemas/b.json": mcpTool("beta") });
  expect((await project.run("generate")).code).toBe(0);
});
afterEach(() => project.remove());

describe("toolguard check", () => {
  it("passes on fresh output and writes nothing", async () => {
    const before = project.snapshot("generated");
    const result = await project.run("check");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/up to date/);
    expect(project.snapshot("generated")).toEqual(before);
  });

  it("reports a hand-edited file as stale, with a diff", async () => {
    const file = path.join(project.dir, "generated/tools/alpha.js");
    writeFileSync(file, project.read("generated/tools/alpha.js").replace("The alpha tool.", "Edited by hand."));
    const result = await project.run("check");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stale: +generated\/tools\/alpha\.js/);
    expect(result.stderr).toMatch(/- .*Edited by hand\./);
    expect(result.stderr).toMatch(/\+ .*The alpha tool\./);
    expect(result.stderr).toMatch(/run `npx toolguard generate`/);
  });

  it("reports missing and extra files", async () => {
    rmSync(path.join(project.dir, "generated/tools/beta.d.ts"));
    writeFileSync(path.join(project.dir, "generated/tools/stray.js"), "export {};\n");
    const result = await project.run("check");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing: generated\/tools\/beta\.d\.ts/);
    expect(result.stderr).toMatch(/extra: +generated\/tools\/stray\.js/);
  });

  it("reports output made stale by a schema change", async () => {
    project.write("schemas/b.json", mcpTool("beta", { type: "object", properties: { q: { type: "integer" } } }));
    const result = await project.run("check");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stale: +generated\/tools\/beta\.(js|d\.ts)/);
  });

  it("reports a new schema's files as missing", async () => {
    project.write("schemas/c.json", mcpTool("gamma"));
    const result = await project.run("check");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing: generated\/tools\/gamma\.js/);
  });
});

describe("toolguard check after a shared file changed", () => {
  it("shows the changed schema first, and the files whose only change is the header's hash in one line", async () => {
    const shared = new TempProject({
      "schemas/_shared/text.json": { $defs: { text: { type: "string", maxLength: 10 } } },
      "schemas/a.json": mcpTool("alpha", { type: "object", properties: { q: { $ref: "_shared/text.json#/$defs/text" } } }),
      "schemas/b.json": mcpTool("beta", { type: "object", properties: { q: { $ref: "_shared/text.json#/$defs/text" } } }),
    });
    try {
      expect((await shared.run("generate")).code).toBe(0);
      shared.write("schemas/_shared/text.json", { $defs: { text: { type: "string", maxLength: 20 } } });
      const result = await shared.run("check");
      expect(result.code).toBe(1);
      const diffs = result.stderr.split("\n").filter((line) => /^ {4}[-+] /.test(line));
      expect(diffs.length).toBeGreaterThan(0);
      // Every line of the diff is about the schema, none is the header's hash line.
      for (const line of diffs) expect(line).not.toMatch(/sha256:/);
      expect(diffs.some((line) => line.includes("20"))).toBe(true);
      expect(result.stderr.indexOf("stale:")).toBeLessThan(Math.max(result.stderr.indexOf("source hash only"), result.stderr.length));
    } finally {
      shared.remove();
    }
  });
});
