// A tool's module is one file: its tables, its `defineTool` export and, after them, the
// standalone validator ajv compiled (one module to load per tool instead of two). It imports
// only the shared runtime, never another tool, and its export cannot take a name the module
// already uses.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportName } from "../../generator/emit/names.ts";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

const pattern = {
  type: "object",
  properties: { code: { type: "string", pattern: "^[A-Z]{3}$" }, day: { type: "string", format: "date" }, n: { type: ["integer", "null"] } },
  required: ["code"],
};

describe("the tool's module", () => {
  it("holds the validator and imports nothing but the runtime", async () => {
    project = new TempProject({ "schemas/a.json": mcpTool("alpha", pattern), "schemas/b.json": mcpTool("beta") });
    expect((await project.run("generate")).code).toBe(0);
    const files = Object.keys(project.snapshot("generated")).filter((file) => file.startsWith("tools/"));
    expect(files.sort()).toEqual(["tools/alpha.d.ts", "tools/alpha.js", "tools/beta.d.ts", "tools/beta.js"]);
    const module = project.read("generated/tools/alpha.js");
    const specifiers = [...module.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(specifiers.sort()).toEqual([
      "../runtime/call/define-tool.js",
      "../runtime/parse/json-hazards.js",
      "../runtime/validate/formats.js",
      "../runtime/validate/pattern.js",
    ]);
    expect(module).toMatch(/^ {2}validate: validate_arguments,$/m);
    expect(module).toMatch(/^function validate_arguments\(data/m);
  });

  it.each(["validate", "validate20", "schema31", "func0", "formats", "http", "hints", "defineTool", "equal", "writeOnly", "rewrites", "putOwn"])(
    "a tool named %s loads and guards",
    async (name) => {
      expect(exportName(name)).toBe(`${name}Tool`);
      project = new TempProject({ "schemas/t.json": mcpTool(name, pattern) });
      expect((await project.run("generate")).code).toBe(0);
      const probe = `const { tools } = await import(${JSON.stringify(`file://${path.join(project.dir, "generated/index.js")}`)});
const g = tools[${JSON.stringify(name)}].implement(() => "ran", { ledger: { append() {} } });
console.log(JSON.stringify([(await g.call('{"code":"EUR"}', { turn: "a" })).status, (await g.call('{"code":"eur"}', { turn: "b" })).status]));`;
      expect(JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }))).toEqual(["ok", "validation_failed"]);
    },
  );
});
