// Every tool shape users already have is read into the same description: MCP, Anthropic,
// OpenAI (nested and flat), a bare JSON Schema with a title, in JSON or YAML, one tool per file
// or several; `$schema` picks the dialect, and `#` in a `$ref` means the tool's input schema.
import { afterEach, describe, expect, it } from "vitest";
import { InputErrors } from "../../generator/errors.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { TempProject } from "../helpers/temp-project.ts";

const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
let project: TempProject;
afterEach(() => project?.remove());

async function read(files: Record<string, unknown>) {
  project = new TempProject(files);
  return readSchemaSet(`${project.dir}/schemas`, { allowNetwork: false, strict: false });
}

describe("tool shapes", () => {
  it.each([
    ["MCP", { name: "find", description: "Find.", inputSchema: schema }],
    ["Anthropic", { name: "find", description: "Find.", input_schema: schema }],
    ["OpenAI, nested", { type: "function", function: { name: "find", description: "Find.", parameters: schema } }],
    ["OpenAI, flat", { type: "function", name: "find", description: "Find.", parameters: schema }],
    ["bare JSON Schema", { title: "find", description: "Find.", ...schema }],
  ])("reads the %s shape", async (_shape, tool) => {
    const { tools } = await read({ "schemas/find.json": tool });
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ name: "find", description: "Find.", dialect: "2020-12", source: { file: "find.json" } });
    expect(tools[0]?.inputSchema).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema });
  });

  it("reads YAML, arrays of tools and {tools: [...]}", async () => {
    const { tools } = await read({
      "schemas/a.yaml": "name: alpha\ndescription: A.\ninputSchema:\n  type: object\n  properties:\n    n: {type: integer}\n",
      "schemas/b.json": [
        { name: "beta", inputSchema: schema },
        { name: "gamma", input_schema: schema },
      ],
      "schemas/c.json": { tools: [{ name: "delta", inputSchema: schema }] },
    });
    expect(tools.map((tool) => [tool.name, tool.source.pointer])).toEqual([
      ["alpha", ""],
      ["beta", "/0"],
      ["gamma", "/1"],
      ["delta", "/tools/0"],
    ]);
  });

  it("honours $schema: draft-07 keeps its dialect and its definitions", async () => {
    const { tools } = await read({
      "schemas/d7.json": {
        title: "old",
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { a: { $ref: "#/definitions/a" } },
        definitions: { a: { type: "string" } },
      },
    });
    expect(tools[0]?.dialect).toBe("draft-07");
    expect(tools[0]?.inputSchema).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#", definitions: { a: { type: "string" } } });
  });

  it("resolves $refs relative to the input schema, and across files into $defs", async () => {
    const { tools } = await read({
      "schemas/_shared/types.json": { $defs: { money: { type: "number", minimum: 0 } } },
      "schemas/t.json": {
        name: "t",
        inputSchema: {
          type: "object",
          properties: { a: { $ref: "_shared/types.json#/$defs/money" }, b: { $ref: "#/$defs/local" } },
          $defs: { local: { type: "boolean" } },
        },
      },
    });
    expect(tools.map((tool) => tool.name)).toEqual(["t"]); // `_shared` is not read as tools
    expect(tools[0]?.inputSchema).toMatchObject({ properties: { a: { type: "number", minimum: 0 }, b: { $ref: "#/$defs/local" } } });
  });

  it("keeps recursive references as references", async () => {
    const { tools } = await read({
      "schemas/tree.json": {
        name: "tree",
        inputSchema: {
          type: "object",
          properties: { root: { $ref: "#/$defs/node" } },
          $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
        },
      },
    });
    expect(JSON.stringify(tools[0]?.inputSchema).length).toBeLessThan(400);
    expect(tools[0]?.inputSchema).toMatchObject({ $defs: { node: { properties: { children: { items: { $ref: "#/$defs/node" } } } } } });
  });

  it("lifts reference annotations into the reference table", async () => {
    const { tools } = await read({
      "schemas/r.json": {
        name: "r",
        inputSchema: {
          type: "object",
          properties: {
            customer_ref: { type: "string", "x-toolguard-reference": { kind: "customer", target: "customer_id" } },
            lines: {
              type: "array",
              items: { type: "object", properties: { product: { type: "string", "x-toolguard-reference": { kind: "product", target: "product_id" } } } },
            },
          },
        },
      },
    });
    expect(tools[0]?.references).toEqual({
      "/customer_ref": { kind: "customer", target: "customer_id" },
      "/lines/*/product": { kind: "product", target: "product_id" },
    });
    expect(JSON.stringify(tools[0]?.inputSchema)).not.toContain("x-toolguard-reference");
  });

  it("refuses a reference whose target the model could also send", async () => {
    const error = await read({
      "schemas/r.json": {
        name: "r",
        inputSchema: {
          type: "object",
          properties: { c: { type: "string", "x-toolguard-reference": { kind: "customer", target: "customer_id" } }, customer_id: { type: "string" } },
        },
      },
    }).catch((caught: InputErrors) => caught);
    expect(error).toBeInstanceOf(InputErrors);
    expect((error as InputErrors).format()).toMatch(/r\.json.*target "customer_id" of \/c is also a property/);
  });
});
