// A keyword no JSON Schema vocabulary defines is an annotation (2020-12). Published MCP servers
// carry such notes: Codacy's MCP server (@codacy/codacy-mcp 0.5.9) writes `"note": "_other_ can
// be used to ..."` beside an enum in 2 of its 23 tools, and its whole tool list was refused
// ("unknown keyword"), nothing written. Such a keyword is now left out with a warning; what may
// be a misspelt assertion (close to a known keyword, with a value that keyword accepts) is still
// refused, and `--strict` refuses every unknown keyword.
import { afterEach, describe, expect, it } from "vitest";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";

let project: TempProject;
afterEach(() => project?.remove());

const categories = { type: "array", items: { type: "string", enum: ["Auth", "_other_"] }, note: "_other_ finds issues with no category" };
const toolList = {
  tools: [
    mcpTool("search_items", { type: "object", properties: { options: { type: "object", properties: { categories } } } }),
    mcpTool("get_item", { type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
  ],
};

describe("unknown keywords in a tool file", () => {
  it("an annotation (a note beside an enum) is left out with a warning; every tool is generated", async () => {
    project = new TempProject({ "schemas/server.json": toolList });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'server.json: unknown keyword "note" at input schema #/properties/options/properties/categories left out: JSON Schema treats it as an annotation',
    );
    const files = project.snapshot("generated");
    expect(
      Object.keys(files)
        .filter((file) => /^tools\/[^/]+\.js$/.test(file))
        .sort(),
    ).toEqual(["tools/get-item.js", "tools/search-items.js"]);
    expect(files["tools/search-items.js"]).not.toContain("_other_ finds issues");
  });

  it.each([
    ["a keyword one swap from a known one, with a value it takes", { type: "string", maxLenght: 3 }, 'unknown keyword "maxLenght"'],
    ["snake case of a known keyword", { type: "array", min_items: 1 }, 'unknown keyword "min_items"'],
    ["another case of a known keyword", { type: "string", MinLength: 1 }, 'unknown keyword "MinLength"'],
  ])("what may be a misspelt assertion is still refused: %s", async (_what, schema, message) => {
    project = new TempProject({ "schemas/t.json": mcpTool("t", { type: "object", properties: { a: schema } }) });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it("--strict refuses the annotation too", async () => {
    project = new TempProject({ "schemas/server.json": toolList });
    const result = await project.run("generate", "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown keyword "note" at #/properties/options/properties/categories');
  });
});

describe("unknown keywords beside a key that is not well-formed Unicode", () => {
  it("the key is refused by name, before any walk spells places with it (encodeURIComponent throws on it)", async () => {
    // The name fuzz's counterexample: a property "\ud800constructor". The unknown-keyword walk
    // ran first and stopped the run with "URIError: URI malformed" and a stack trace.
    const schema = { type: "object", properties: { "\ud800constructor": { type: "string", note: "a remark" }, constructor: { type: "string" } } };
    project = new TempProject({ "schemas/server.json": { tools: [mcpTool("odd_keys", schema)] } });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not well-formed Unicode (a lone surrogate)");
    expect(result.stderr).not.toMatch(/URIError|\n\s+at /);
  });
});
