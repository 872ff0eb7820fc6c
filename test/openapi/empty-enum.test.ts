// `enum: []` is legal JSON Schema 2020-12 (OpenAPI 3.1) and allows no value; ajv refuses to
// compile it, so Discord's current description lost two operations ("the input schema does not
// compile: enum must have non-empty array"). An optional field that accepts nothing leaves the
// operation usable: the field is refused when sent, the call without it passes. A required field
// that accepts nothing is a schema no request can satisfy, skipped with that reason.
// Fixture: fixtures/openapi/empty-enum-3.1.json (the shape of Discord's join-request filter).
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

function validator(tool: ToolDescription) {
  const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
  return ajv.compile(compiled);
}

describe("an empty enum", () => {
  let result: ReadResult;
  beforeAll(async () => {
    result = readOpenApi(await loadOpenApiDocument(path.join(root, "empty-enum-3.1.json"), { root }));
  });

  it("on an optional parameter: the tool compiles, accepts calls without it and refuses every value of it", () => {
    const tool = result.tools.find((candidate) => candidate.name === "list_requests");
    expect(tool).toBeDefined();
    const validate = validator(tool!);
    expect(validate({ limit: 5 })).toBe(true);
    expect(validate({})).toBe(true);
    for (const status of [1, "1", "pending", null]) expect(validate({ status }), JSON.stringify(status)).toBe(false);
  });

  it("on a required field: the operation is skipped as a schema no request can satisfy, naming the field", () => {
    expect(result.tools.map((tool) => tool.name)).toEqual(["list_requests"]);
    expect(result.skipped).toHaveLength(1);
    const [skip] = result.skipped;
    expect(skip?.name).toBe("act_on_request");
    expect(skip?.reason).toMatch(/"action" is required but its schema accepts no value/);
    expect(skip?.reason).toMatch(/properties\/action/);
  });
});
