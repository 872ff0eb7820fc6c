// Every kind of bad input stops generation with an error that names the file, the place and
// the fix, exits 1, and leaves the previous output exactly as it was.
import { afterEach, describe, expect, it } from "vitest";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";

let project: TempProject;
afterEach(() => project?.remove());

async function generatedOnce(): Promise<Record<string, string>> {
  project = new TempProject({ "schemas/good.json": mcpTool("good_tool") });
  const first = await project.run("generate");
  expect(first.code).toBe(0);
  return project.snapshot("generated");
}

const cases: [string, Record<string, unknown>, RegExp][] = [
  ["a file that is not JSON", { "schemas/broken.json": '{ "name": ' }, /broken\.json: not valid JSON/],
  ["an empty file", { "schemas/empty.json": " \n" }, /empty\.json: the file is empty/],
  ["a document that is no tool", { "schemas/odd.json": { hello: "world" } }, /odd\.json: not a tool/],
  ["an input schema that is not an object schema", { "schemas/t.json": mcpTool("t", { type: "string" }) }, /t\.json.*must have type "object"/],
  [
    "an unknown keyword",
    { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { type: "string", maxLenght: 3 } } }) },
    /unknown keyword "maxLenght" at #\/properties\/a/,
  ],
  [
    "a json-schema-to-typescript raw-code keyword",
    { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { tsType: "any; process.exit()" } } }) },
    /"tsType" at #\/properties\/a would paste schema text/,
  ],
  ["an invalid schema value", { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { type: "strnig" } } }) }, /does not compile/],
  ["a dangling $ref", { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { $ref: "#/$defs/missing" } } }) }, /dangling \$ref/],
  [
    "a $ref to a missing file",
    { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { $ref: "_shared/nope.json" } } }) },
    /does not exist: _shared\/nope\.json/,
  ],
  [
    "a $ref outside the schema root",
    { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { $ref: "../secret.json" } } }), "secret.json": { type: "string" } },
    /reaches outside the schema root/,
  ],
  [
    "a $ref to the network",
    { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } }) },
    /network access is off/,
  ],
  ["a $ref into the prototype chain", { "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { $ref: "#/constructor" } } }) }, /dangling \$ref/],
  ["two tools with the same name", { "schemas/a.json": mcpTool("same"), "schemas/b.json": mcpTool("same") }, /has the same name as tool "same"/],
  ["two tools with the same export name", { "schemas/a.json": mcpTool("get_user"), "schemas/b.json": mcpTool("getUser") }, /same export name/],
  ["a name that is not safe for providers", { "schemas/a.json": mcpTool("create invoice!") }, /tool name "create invoice!" is not safe/],
  [
    "an unsupported $schema",
    { "schemas/a.json": mcpTool("a", { $schema: "http://json-schema.org/draft-04/schema#", type: "object" }) },
    /unsupported \$schema/,
  ],
];

const INVALID_PATTERN = { "schemas/a.json": mcpTool("a", { type: "object", properties: { p: { type: "string", pattern: "(" } } }) };
const INVALID_PATTERN_MESSAGE = /pattern "\(" at #\/properties\/p\/pattern is refused: not a valid ECMAScript regular expression/;

describe("bad input stops generation", () => {
  it.each(cases)("%s", async (_what, files, message) => {
    const before = await generatedOnce();
    for (const [file, content] of Object.entries(files)) project.write(file, content);
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nothing was written/);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/fix: /);
    expect(project.snapshot("generated")).toEqual(before);
  });

  // A pattern toolguard cannot compile cannot be enforced, and weakening it is no option: the tool
  // is skipped with its reason, as a vendor document's operation is (emit/emit-skip.ts), and
  // --strict stops the run (test/openapi/emit-time-skips.test.ts has the lookaround twin).
  it("an invalid pattern, under --strict", async () => {
    const before = await generatedOnce();
    for (const [file, content] of Object.entries(INVALID_PATTERN)) project.write(file, content);
    const result = await project.run("generate", "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nothing was written/);
    expect(result.stderr).toMatch(INVALID_PATTERN_MESSAGE);
    expect(project.snapshot("generated")).toEqual(before);
  });

  it("an invalid pattern skips its tool, with the reason, and the rest is generated", async () => {
    await generatedOnce();
    for (const [file, content] of Object.entries(INVALID_PATTERN)) project.write(file, content);
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("generated: 1 tool");
    expect(result.stdout).toMatch(/a \(a\.json#\): .*not a valid ECMAScript regular expression.*fix: /);
  });

  it("reports every broken file in one run", async () => {
    project = new TempProject({
      "schemas/a.json": mcpTool("a", { type: "object", properties: { x: { $ref: "#/$defs/gone" } } }),
      "schemas/b.json": "not json",
    });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/a\.json/);
    expect(result.stderr).toMatch(/b\.json/);
  });

  it("reports every tool whose schema does not compile in one run", async () => {
    project = new TempProject({
      "schemas/a.json": mcpTool("a", { type: "object", properties: { x: { type: "nope" } } }),
      "schemas/b.json": mcpTool("b", { type: "object", properties: { y: { minimum: "one" } } }),
    });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/input schema of a does not compile/);
    expect(result.stderr).toMatch(/input schema of b does not compile/);
  });
});

describe("command-line misuse", () => {
  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [[], /no command given/],
    [["generate", "--bogus"], /Unknown option '--bogus'/],
    [["generate", "--config", "missing.json"], /config file not found: missing\.json/],
  ])("%j exits 2", async (argv, message) => {
    project = new TempProject({ "schemas/a.json": mcpTool("a") });
    const result = await project.run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("rejects a config with an unknown option, naming it", async () => {
    project = new TempProject({ "schemas/a.json": mcpTool("a"), "toolguard.config.json": { sets: [{ schemas: "schemas", out: "out", outdir: "x" }] } });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sets\[0\]: unknown option "outdir"/);
  });

  it("refuses an out folder that would overwrite the schemas", async () => {
    project = new TempProject({ "schemas/a.json": mcpTool("a"), "toolguard.config.json": { sets: [{ schemas: "schemas", out: "." }] } });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/would overwrite the schemas/);
  });

  it("names the output folder when a file stands in its place, for generate and check, and writes no later set", async () => {
    project = new TempProject({
      "schemas/a.json": mcpTool("a"),
      "more/b.json": mcpTool("b"),
      "toolguard.config.json": {
        sets: [
          { schemas: "schemas", out: "out/a" },
          { schemas: "more", out: "blocked/b" },
        ],
      },
      blocked: "a file, not a folder",
    });
    const generated = await project.run("generate");
    expect(generated.code).toBe(1);
    expect(generated.stderr).not.toMatch(/internal error/);
    expect(generated.stderr).toMatch(/written before this: out\/a; nothing else was/);
    expect(generated.stderr).toMatch(/blocked\/b: cannot write the output folder: a file stands where the output folder, or a folder above it, should be/);
    expect(generated.stderr).toMatch(/fix: remove or rename that file/);
    expect(project.read("blocked")).toBe("a file, not a folder");
    const checked = await project.run("check");
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/blocked\/b: cannot read the output folder/);
  });

  it("reads a JSON or YAML file that starts with a byte-order mark, as some editors write them", async () => {
    project = new TempProject({
      "schemas/a.json": `\uFEFF${JSON.stringify(mcpTool("with_bom"))}`,
      "schemas/b.yaml": "\uFEFFname: yaml_with_bom\ndescription: d\ninputSchema:\n  type: object\n",
    });
    const result = await project.run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(Object.keys(project.snapshot("generated")).filter((file) => file.startsWith("tools/") && file.endsWith(".js"))).toEqual([
      "tools/with-bom.js",
      "tools/yaml-with-bom.js",
    ]);
  });
});
