// A vendor's multi-file description as its repository lays it out (fixtures/openapi/vendor-repo:
// the entry, paths/ and models/ it references, examples in JSON, Python, curl and a broken YAML
// template, a linter config, notes, a model nothing references any more) is a schema set as it
// is (issue 32): the files nothing references are ignored with one summary line, never read as
// tool files. `schemas` may name the entry file itself. A set that yields no tool says so.
import { cpSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const VENDOR = path.resolve(import.meta.dirname, "../fixtures/openapi/vendor-repo");
const TOOLS = ["create-pet.d.ts", "create-pet.js", "list-pets.d.ts", "list-pets.js"];

describe("a vendor's repository folder as a schema set", () => {
  let project: TempProject;
  afterEach(() => project.remove());

  function vendorProject(config?: unknown): TempProject {
    project = new TempProject(config === undefined ? {} : { "toolguard.config.json": config });
    cpSync(VENDOR, path.join(project.dir, "schemas"), { recursive: true });
    return project;
  }
  const tools = (out = "generated"): string[] => readdirSync(path.join(project.dir, out, "tools")).sort();

  it("reads the entry and ignores the files nothing references, with one line saying how many and where", async () => {
    const result = await vendorProject().run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(TOOLS);
    const lines = result.stdout.split("\n").filter((line) => line.includes("ignored"));
    expect(lines).toEqual([
      "  ignored 5 files that no OpenAPI document of the set references (in the top folder, docs/, examples/json/, examples/templates/, models/); a tool file beside OpenAPI documents must name itself (MCP, Anthropic or OpenAI shape), or go in a set of its own",
    ]);
  });

  it("keeps a tool file in a shape that names the tool beside the documents; a titled bare schema stays ignored", async () => {
    const made = vendorProject();
    made.write("schemas/tools/create-invoice.json", {
      name: "create_invoice",
      description: "Create an invoice.",
      inputSchema: { type: "object", properties: { amount: { type: "number" } } },
    });
    made.write("schemas/tools/search.json", {
      type: "function",
      function: { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } },
    });
    made.write("schemas/models/stray.json", { title: "Stray", type: "object", properties: { a: { type: "string" } } });
    const result = await made.run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(["create-invoice.d.ts", "create-invoice.js", ...TOOLS, "search.d.ts", "search.js"].sort());
    expect(result.stdout).toContain("ignored 6 files");
  });

  it("with `entry`, reads that document alone", async () => {
    const result = await vendorProject({ sets: [{ schemas: "schemas", out: "generated", entry: "openapi.yaml" }] }).run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(TOOLS);
  });

  it("`schemas` may name the entry file: its folder is the root its $refs reach", async () => {
    const result = await vendorProject({ sets: [{ schemas: "schemas/openapi.yaml", out: "generated" }] }).run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(tools()).toEqual(TOOLS);
  });

  it("`schemas` naming a file that is not an OpenAPI document is refused with the fix, no stack", async () => {
    const result = await vendorProject({ sets: [{ schemas: "schemas/models/Pet.yaml", out: "generated" }] }).run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Pet.yaml: the set's entry has no top-level `openapi` field");
    expect(result.stderr).not.toMatch(/ENOTDIR|\n\s+at /);
  });

  it("`schemas` naming a file and `entry` too is a usage error", async () => {
    const result = await vendorProject({ sets: [{ schemas: "schemas/openapi.yaml", out: "generated", entry: "openapi.yaml" }] }).run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/schemas names a file \(schemas\/openapi\.yaml\) and entry is set too/);
  });

  it("a referenced file that is broken is still an error, naming it", async () => {
    project = vendorProject();
    project.write("schemas/models/Pet.yaml", "type: object\nproperties: [unclosed\n");
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("models/Pet.yaml");
  });
});

describe("a set that yields no tool", () => {
  let project: TempProject;
  afterEach(() => project.remove());

  it("warns, naming the set and why, when its document has no operations", async () => {
    project = new TempProject({ "schemas/api.yaml": "openapi: 3.1.0\ninfo: { title: Webhooks only, version: '1' }\nwebhooks: {}\n" });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `toolguard: warning: ${path.join(project.dir, "schemas")}: the set yields no tool: api.yaml describes no operation (\`paths\` is empty or missing)\n`,
    );
  });

  it("warns when every operation was skipped", async () => {
    project = new TempProject({
      "schemas/api.yaml": [
        "openapi: 3.0.3",
        "info: { title: Uploads, version: '1' }",
        "paths:",
        "  /photos:",
        "    put:",
        "      operationId: upload",
        "      requestBody: { content: { image/png: { schema: { type: string, format: binary } } } }",
        "      responses: { '200': { description: OK } }",
        "",
      ].join("\n"),
    });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the set yields no tool: every one of its 1 operation was skipped (reasons below)");
  });
});
