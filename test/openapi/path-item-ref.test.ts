// A path item that is a `$ref` to another path item (surevoip.co.uk serves `/ip-address` also as
// `/support/ip-address: {$ref: "#/paths/~1ip-address"}`). The reader reads schemas by JSON
// Pointer, so the pointers of the referring path's parameters, operation and body must name the
// objects the `$ref` reaches: before, every such operation with a parameter or a body was skipped
// as "expected a schema object (at #/paths/~1support~1ip-address/get/parameters/0/schema)".
import { describe, expect, it } from "vitest";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const document = () => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/ip-address/{kind}": {
      parameters: [{ name: "kind", in: "path", required: true, schema: { type: "string", enum: ["v4", "v6"] } }],
      post: {
        operationId: "lookUp",
        parameters: [{ name: "format", in: "query", schema: { type: "string", enum: ["json", "text"] } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { note: { type: "string" } } } } } },
        responses: { "200": { description: "ok" } },
      },
    },
    "/support/ip-address/{kind}": { $ref: "#/paths/~1ip-address~1{kind}", summary: "the same, under support" },
  },
});

describe("a path item that is a $ref to another", () => {
  it("reads the operation through the referring path when it has a name of its own", () => {
    const source = document();
    const target = source.paths["/ip-address/{kind}"];
    const renamed = { ...target, post: { ...target.post, operationId: undefined } };
    const paths = { "/ip-address/{kind}": renamed, "/support/ip-address/{kind}": source.paths["/support/ip-address/{kind}"] };
    const { tools, skipped } = readOpenApi({ file: "api.json", document: { ...source, paths } }, {});
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => tool.name).sort()).toEqual(["post_ip-address_kind", "post_support_ip-address_kind"]);
    const support = tools.find((tool) => tool.name === "post_support_ip-address_kind")!;
    expect(support.http?.path).toBe("/support/ip-address/{kind}");
    expect(support.http?.parameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual(["path:kind", "query:format"]);
    expect(support.http?.body?.contentType).toBe("application/json");
    const schema = support.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(["body", "format", "kind"]);
    expect(schema.properties.kind).toMatchObject({ enum: ["v4", "v6"] });
    // Where the operation is: the object the $ref reaches.
    expect(support.source.pointer).toBe("/paths/~1ip-address~1{kind}/post");
  });
});
