// A discriminator whose branches share one listed type for the property: SigNoz's query
// envelopes (github SigNoz/signoz 9997c3d, `docs/api/openapi.yml`, MIT outside ee/) each say
// `type: {$ref: QueryType}`, the six values, and the mapping names one value per envelope. The
// branch's own values were its pin, so every call fit the builder and the formula envelope (its
// `spec` is open) and failed `oneOf`: the guard refused all ten of the vendor's `CreateRule`
// examples. A branch's own values now lose those the mapping gives another branch, in the guard
// (generator/read/openapi/discriminator.ts) and the judge (test/corpus/discriminator-judge.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { selectionOf } from "../corpus/discriminator-judge.ts";

const queryType = { type: "string", enum: ["builder_query", "builder_formula", "promql"] };
const document = {
  openapi: "3.0.3",
  info: { title: "shared tag type", version: "1" },
  paths: {
    "/rules": {
      post: {
        operationId: "createRule",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", properties: { query: { $ref: "#/components/schemas/Envelope" } } } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      QueryType: queryType,
      Envelope: {
        type: "object",
        oneOf: [{ $ref: "#/components/schemas/Builder" }, { $ref: "#/components/schemas/Formula" }, { $ref: "#/components/schemas/PromQL" }],
        discriminator: {
          propertyName: "type",
          mapping: { builder_query: "#/components/schemas/Builder", builder_formula: "#/components/schemas/Formula", promql: "#/components/schemas/PromQL" },
        },
      },
      Builder: {
        type: "object",
        required: ["type"],
        properties: { type: { $ref: "#/components/schemas/QueryType" }, spec: { type: "object", properties: { signal: { type: "string" } } } },
      },
      Formula: { type: "object", required: ["type"], properties: { type: { $ref: "#/components/schemas/QueryType" }, spec: { type: "object" } } },
      PromQL: {
        type: "object",
        required: ["type"],
        properties: { type: { $ref: "#/components/schemas/QueryType" }, spec: { type: "object", required: ["query"] } },
      },
    },
  },
};

const builder = { query: { type: "builder_query", spec: { signal: "logs" } } };
const formula = { query: { type: "builder_formula", spec: { expression: "A / B" } } };

describe("a discriminator over branches that share the property's listed type", () => {
  let dir: string;
  let validate: (value: unknown) => boolean;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "shared-tag-"));
    writeFileSync(path.join(dir, "doc.json"), JSON.stringify(document));
    const result = readOpenApi(await loadOpenApiDocument(path.join(dir, "doc.json"), { root: dir }));
    const tool = result.tools.find((candidate) => candidate.name === "createRule");
    if (tool === undefined) throw new Error(`no createRule; skipped: ${JSON.stringify(result.skipped)}`);
    const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
    validate = ajv.compile(compiled);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the guard takes each call by the branch its value selects", () => {
    expect(validate({ body: builder })).toBe(true);
    expect(validate({ body: formula })).toBe(true);
    // The value selects the branch: a PromQL call is judged by PromQL's rules alone.
    expect(validate({ body: { query: { type: "promql", spec: {} } } })).toBe(false);
    expect(validate({ body: { query: { type: "promql", spec: { query: "up" } } } })).toBe(true);
  });

  it("the judge reads the discriminator the same way", () => {
    const selection = selectionOf(document, document.components.schemas.Envelope);
    expect(selection?.branches.map((branch) => branch.values)).toEqual([["builder_query"], ["builder_formula"], ["promql"]]);
  });
});
