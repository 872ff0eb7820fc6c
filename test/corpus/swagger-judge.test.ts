// The judge on a Swagger 2.0 entry of the corpus (@readme/oas-examples' petstore.json, as
// published). toolguard generates from swagger2openapi's conversion; the judge reads the vendor's
// Swagger file as written (operation-arguments.ts: a parameter is its own schema, `in: body`
// carries the body, `in: formData` parameters are the body's fields; as-written.ts: the 3.0
// dialect). So each tool generated from the conversion must be mapped back to its Swagger
// operation, the mapped schema must accept and refuse what the Swagger schema does, and every
// instance of the Swagger schema must pass the guard built from the conversion.
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { asWrittenJudge } from "./as-written.ts";
import { judgeDocument } from "./judge-document.ts";
import { readEntry, readManifest } from "./manifest.ts";
import { operationArguments } from "./operation-arguments.ts";

type Node = Record<string, unknown>;

const ID = "@readme/oas-examples:2.0/json/petstore.json";
const entry = readManifest().entries.find((candidate) => candidate.id === ID)!;
const swagger = JSON.parse(readEntry(entry).toString("utf8")) as Node;

/** The parts of a tool operationArguments reads: where the operation is and what the tool binds. */
function boundTool(pointer: string, parameters: { in: string; name: string }[], body?: string): ToolDescription {
  return {
    source: { pointer },
    http: {
      parameters: parameters.map((parameter) => ({ ...parameter, arg: parameter.name })),
      ...(body ? { body: { arg: "body", contentType: body } } : {}),
    },
  } as unknown as ToolDescription;
}

function judgeOf(tool: ToolDescription): (value: unknown) => boolean {
  const args = operationArguments(swagger, tool);
  if (typeof args === "string") throw new Error(args);
  return asWrittenJudge(swagger)(args.schema);
}

describe("the judge on a Swagger 2.0 document as published", () => {
  it("is in the manifest as Swagger 2.0", () => {
    expect(entry.format).toBe("swagger 2.0");
    expect(swagger.swagger).toBe("2.0");
  });

  it("reads an `in: body` parameter's schema through `#/definitions`", () => {
    const validate = judgeOf(boundTool("/paths/~1pet/post", [], "application/json"));
    expect(validate({ body: { name: "doggie", photoUrls: ["https://example.com/a.png"], status: "sold" } })).toBe(true);
    expect(validate({ body: { photoUrls: [] } })).toBe(false); // Pet requires name
    expect(validate({ body: { name: "doggie", photoUrls: [], status: "lost" } })).toBe(false); // status enum
    expect(validate({})).toBe(false); // the body parameter is required
  });

  it("reads a query parameter that is its own schema (type array, items enum)", () => {
    const validate = judgeOf(boundTool("/paths/~1pet~1findByStatus/get", [{ in: "query", name: "status" }]));
    expect(validate({ status: ["available", "sold"] })).toBe(true);
    expect(validate({ status: ["gone"] })).toBe(false);
    expect(validate({ status: "available" })).toBe(false);
  });

  it("reads `in: formData` parameters as the body's fields, and a path parameter's bounds", () => {
    const form = judgeOf(boundTool("/paths/~1pet~1{petId}/post", [{ in: "path", name: "petId" }], "application/x-www-form-urlencoded"));
    expect(form({ petId: 7, body: { name: "rex", status: "sold" } })).toBe(true);
    expect(form({ petId: 7, body: { name: 5 } })).toBe(false);
    expect(form({ petId: "seven", body: {} })).toBe(false);
    const order = judgeOf(boundTool("/paths/~1store~1order~1{orderId}/get", [{ in: "path", name: "orderId" }]));
    expect(order({ orderId: 10 })).toBe(true);
    expect(order({ orderId: 11 })).toBe(false); // maximum: 10
  });

  it("maps every tool generated from the conversion, and the guard accepts every instance of the Swagger schema", async () => {
    const result = await judgeDocument(entry, { typecheck: false });
    expect(result.status).toBe("generated");
    const skipped = Object.values(result.skips).reduce((total, skip) => total + skip.count, 0);
    expect(result.tools + skipped).toBe(entry.operations);
    expect(result.tools).toBeGreaterThanOrEqual(18);
    expect(result.oracle.unjudged).toEqual({});
    // Every tool judged on instances the Swagger schema accepts (several per tool), none refused.
    expect(result.oracle.instances).toBeGreaterThanOrEqual(2 * result.tools);
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.falseRejections).toBe(0);
  });
});
