// Pre-traffic advice (generator/advice/): each kind on a schema made to show it, and not on the
// near miss that must not show it. Tools go through the real reader (describeSet), so reference
// annotations are lifted as in `generate`.
import { describe, expect, it } from "vitest";
import { type Advice, schemaAdvice } from "../../generator/advice/advice.ts";
import { resolveConfig } from "../../generator/config.ts";
import { describeSet } from "../../generator/generate.ts";
import { mcpTool, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

/** The advice for one tool file whose input schema is `inputSchema`. */
async function adviceFor(inputSchema: Record<string, unknown>, options: { ignore?: string[] } = {}): Promise<Advice[]> {
  const project = newProject({ "schemas/tool.json": mcpTool("the_tool", { type: "object", ...inputSchema }) });
  const set = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, project.dir).sets[0]!;
  const { tools } = await describeSet(set, { allowNetwork: false, strict: false });
  return schemaAdvice(tools, options);
}

const places = (advice: readonly Advice[], kind: Advice["kind"]): string[] => advice.filter((item) => item.kind === kind).map((item) => item.pointer);

const manyValues = Array.from({ length: 20 }, (_, index) => `region-${index}`);

describe("invented-id: an identifier the model must produce, with no reference annotation", () => {
  it("advises on every spelling of a required id, inline and under a definition, with the file and pointer", async () => {
    const advice = await adviceFor({
      properties: {
        customer_id: { type: "string" },
        projectId: { type: "integer" },
        "order-id": { type: "string" },
        tag_ids: { type: "array", items: { type: "string" } },
        line: { $ref: "#/$defs/line" },
      },
      required: ["customer_id", "projectId", "order-id", "tag_ids", "line"],
      $defs: { line: { type: "object", properties: { sku_uuid: { type: "string" } }, required: ["sku_uuid"] } },
    });
    expect(places(advice, "invented-id")).toEqual([
      "/$defs/line/properties/sku_uuid",
      "/properties/customer_id",
      "/properties/order-id",
      "/properties/projectId",
      "/properties/tag_ids",
    ]);
    const first = advice.find((item) => item.pointer === "/properties/customer_id")!;
    expect(first).toMatchObject({ tool: "the_tool", file: "tool.json", toolPointer: "" });
    expect(first.change).toContain("x-toolguard-reference");
    expect(advice.find((item) => item.pointer.startsWith("/$defs"))!.change).toContain("move the field inline");
  });

  it("is silent for a reference field, a closed choice, an optional id, a non-id name and an unused definition", async () => {
    const advice = await adviceFor({
      properties: {
        customer_ref: { type: "string", "x-toolguard-reference": { kind: "customer", target: "customer_id" } },
        status_id: { type: "integer", enum: [1, 2, 3] },
        parent_id: { type: "string" },
        paid: { type: "boolean" },
        valid: { type: "string" },
        settings_id: { type: "object", properties: {} },
      },
      required: ["customer_ref", "status_id", "paid", "valid", "settings_id"],
      $defs: { unused: { type: "object", properties: { ghost_id: { type: "string" } }, required: ["ghost_id"] } },
    });
    expect(advice).toEqual([]);
  });

  it("is silent for an id the reference table annotates inside a list", async () => {
    const advice = await adviceFor({
      properties: {
        items: {
          type: "array",
          maxItems: 5,
          items: {
            type: "object",
            properties: { product_id: { type: "string", "x-toolguard-reference": { kind: "product", target: "sku" } } },
            required: ["product_id"],
          },
        },
      },
    });
    expect(places(advice, "invented-id")).toEqual([]);
  });
});

describe("undescribed-enum: more values than the error lists, and no description", () => {
  it("advises on an enum and on a list of const branches, at their pointers", async () => {
    const advice = await adviceFor({
      properties: {
        region: { type: "string", enum: manyValues },
        zones: { type: "array", items: { enum: manyValues } },
        plan: { oneOf: manyValues.map((value) => ({ const: value })) },
      },
    });
    expect(places(advice, "undescribed-enum")).toEqual(["/properties/plan", "/properties/region", "/properties/zones/items"]);
    expect(advice[0]!.finding).toMatch(/^20 allowed values/);
  });

  it("is silent for a described enum, a described list of them, described branches and 12 values", async () => {
    const advice = await adviceFor({
      properties: {
        region: { type: "string", enum: manyValues, description: "The data centre region, as in the console." },
        zones: { type: "array", description: "Zones to deploy to.", items: { enum: manyValues } },
        plan: { oneOf: manyValues.map((value) => ({ const: value, description: `The ${value} plan.` })) },
        size: { enum: manyValues.slice(0, 12) },
      },
    });
    expect(advice).toEqual([]);
  });
});

describe("required-default: a required field with a default", () => {
  it("advises on it, naming the default", async () => {
    const advice = await adviceFor({ properties: { notify: { type: "boolean", default: false }, name: { type: "string" } }, required: ["notify", "name"] });
    expect(places(advice, "required-default")).toEqual(["/properties/notify"]);
    expect(advice[0]!.finding).toContain("(false)");
  });

  it("is silent for an optional field with a default and a required one without", async () => {
    expect(await adviceFor({ properties: { notify: { type: "boolean", default: false }, name: { type: "string" } }, required: ["name"] })).toEqual([]);
  });
});

describe("output-budget: arguments likely to be cut off under a 4,096-token output budget", () => {
  it("advises on unbounded lists of documents, naming the places most of the length comes from", async () => {
    const advice = await adviceFor({
      properties: {
        title: { type: "string", maxLength: 100 },
        sections: { type: "array", items: { type: "object", properties: { body: { type: "string" } } } },
      },
    });
    expect(places(advice, "output-budget")).toEqual(["/properties/sections"]);
    expect(advice[0]!.finding).toMatch(/~10,\d{3} tokens/);
    expect(advice[0]!.finding).toContain("no maxItems, 10 items assumed");
    expect(advice[0]!.finding).toContain("/properties/sections/items/properties/body (free text without maxLength, a document assumed, x10)");
  });

  it("advises on a string whose maxLength is past the budget", async () => {
    const advice = await adviceFor({ properties: { content: { type: "string", maxLength: 65_536 } } });
    expect(places(advice, "output-budget")).toEqual(["/properties/content"]);
    expect(advice[0]!.finding).toContain("maxLength 65,536");
  });

  it("is silent for bounded arguments, a single free-text document and a recursive schema", async () => {
    const advice = await adviceFor({
      properties: {
        body: { type: "string" },
        tags: { type: "array", maxItems: 20, items: { type: "string", maxLength: 40 } },
        tree: { $ref: "#/$defs/node" },
      },
      $defs: {
        node: {
          type: "object",
          properties: { name: { type: "string", maxLength: 50 }, children: { type: "array", maxItems: 3, items: { $ref: "#/$defs/node" } } },
        },
      },
    });
    expect(advice).toEqual([]);
  });
});

describe("silencing", () => {
  const schema = { properties: { account_id: { type: "string" }, notify: { type: "boolean", default: true } }, required: ["account_id", "notify"] };

  it("ignore names a tool, or one kind of advice on it", async () => {
    expect((await adviceFor(schema)).map((item) => item.kind)).toEqual(["invented-id", "required-default"]);
    expect(await adviceFor(schema, { ignore: ["the_tool"] })).toEqual([]);
    expect((await adviceFor(schema, { ignore: ["the_tool:invented-id"] })).map((item) => item.kind)).toEqual(["required-default"]);
    expect((await adviceFor(schema, { ignore: ["other_tool"] })).length).toBe(2);
  });
});
