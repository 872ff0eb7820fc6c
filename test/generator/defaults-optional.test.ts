// Opt-in for zod-style schemas (Playwright's MCP server lists defaulted fields as required): with
// the set's `defaultsOptional`, a required field with a default is optional, and generation
// names each tool so changed. Without it, the schema is read as written.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";

const NAVIGATE = mcpTool("browser_navigate", {
  type: "object",
  properties: {
    url: { type: "string" },
    timeout: { type: "number", default: 5000 },
    options: { type: "object", properties: { wait: { type: "boolean", default: false } }, required: ["wait"], additionalProperties: false },
  },
  required: ["url", "timeout"],
  additionalProperties: false,
});

let project: TempProject;
afterEach(() => project.remove());

async function validatorFor(defaultsOptional: boolean) {
  const { tools } = await readSchemaSet(path.join(project.dir, "schemas"), { allowNetwork: false, strict: false, defaultsOptional });
  const tool = tools[0]!;
  const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
  return { tool, validate: ajv.compile(compiled) };
}

describe("defaultsOptional", () => {
  it("makes required fields with a default optional, at every level, and says so", async () => {
    project = new TempProject({ "schemas/navigate.json": NAVIGATE });
    const { tool, validate } = await validatorFor(true);
    expect(validate({ url: "https://example.com" })).toBe(true);
    expect(validate({ url: "https://example.com", options: {} })).toBe(true);
    expect(validate({ timeout: 1 })).toBe(false); // url has no default: still required
    expect(tool.warnings).toEqual([
      "defaultsOptional: required fields with a default treated as optional: #/properties/options/properties/wait, #/properties/timeout",
    ]);
  });

  it("is off by default", async () => {
    project = new TempProject({ "schemas/navigate.json": NAVIGATE });
    const { tool, validate } = await validatorFor(false);
    expect(validate({ url: "https://example.com" })).toBe(false);
    expect(tool.warnings).toBeUndefined();
  });

  it("generation names the tool and its fields", async () => {
    project = new TempProject({
      "schemas/navigate.json": NAVIGATE,
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", defaultsOptional: true }] },
    });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("1 warning:");
    expect(result.stdout).toMatch(
      /navigate\.json: defaultsOptional: required fields with a default treated as optional: #\/properties\/options\/properties\/wait, #\/properties\/timeout \(tool browser_navigate\)/,
    );
  });

  it("refuses a value that is not a boolean", async () => {
    project = new TempProject({
      "schemas/navigate.json": NAVIGATE,
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", defaultsOptional: "yes" }] },
    });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("defaultsOptional must be true or false");
  });
});
