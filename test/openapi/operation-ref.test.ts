// An Operation Object written as a `$ref` to a shared one, with keys of its own beside it: split
// descriptions do this for operations that differ only in their method (Algolia's custom
// request: get, post, put and delete each `{operationId, requestBody?, $ref: CustomRequest.yml}`,
// the shared object holding the path parameter and the responses). OpenAPI has no reference for
// an operation, but the vendor's bundle (and ref-parser) merge it, and that bundle is what the
// vendor publishes. Before, the split layout lost 3 of the 4 tools: the bundler wrote the shared
// object into the first operation and left the others `{$ref: "#/paths/~1{path}/get", ...}`,
// which the reader did not follow, so each was skipped as "path template names {path} but no
// path parameter is declared" (a parameter the `$ref` declares).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSchemaSet } from "../../generator/read/index.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import type { ToolDescription } from "../../generator/ir.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "toolguard-operation-ref-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): string {
  const root = path.join(dir, "schemas");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const SHARED = `relay:
  summary: Send a request to any endpoint
  parameters:
    - $ref: '#/Target'
    - name: verbose
      in: query
      schema: { type: boolean }
  responses:
    '200': { description: ok }
Target:
  name: target
  in: path
  required: true
  schema: { type: string, minLength: 1 }
`;

const BODY = `      content:
        application/json:
          schema: { type: object, properties: { payload: { type: string } }, required: [payload] }
`;

/** What a tool asks for and sends: its arguments and where each goes. */
function shape(tool: ToolDescription): { arguments: string[]; required: string[]; http: string[]; body: boolean } {
  const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
  return {
    arguments: Object.keys(schema.properties).sort(),
    required: [...(schema.required ?? [])].sort(),
    http: (tool.http?.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`).sort(),
    body: tool.http?.body !== undefined,
  };
}

describe("an operation that is a $ref to a shared one", () => {
  it("split over files, every method gets the shared parameters and keeps its own operationId and body", async () => {
    const root = write({
      "openapi.yaml": `openapi: 3.0.3
info: { title: relay, version: "1" }
servers: [{ url: "https://api.example.com" }]
paths:
  /{target}:
    $ref: paths/relay.yaml
`,
      "paths/relay.yaml": `get:
  operationId: relayGet
  $ref: '../common/relay.yaml#/relay'
post:
  operationId: relayPost
  requestBody:
${BODY.replace(/^ {6}/gm, "    ")}  $ref: '../common/relay.yaml#/relay'
delete:
  operationId: relayDelete
  $ref: '../common/relay.yaml#/relay'
`,
      "common/relay.yaml": SHARED,
    });
    const { tools, skipped } = await readSchemaSet(root, { allowNetwork: false, strict: false, entry: path.join(root, "openapi.yaml") });
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => `${tool.http?.method} ${tool.name}`).sort()).toEqual(["DELETE relayDelete", "GET relayGet", "POST relayPost"]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const bare = { arguments: ["target", "verbose"], required: ["target"], http: ["path:target", "query:verbose"], body: false };
    expect(shape(byName.get("relayGet")!)).toEqual(bare);
    expect(shape(byName.get("relayDelete")!)).toEqual(bare);
    expect(shape(byName.get("relayPost")!)).toEqual({
      arguments: ["body", "target", "verbose"],
      required: ["target"],
      http: ["path:target", "query:verbose"],
      body: true,
    });
    // The shared schema is read where the $ref reaches it: its bound holds in every tool.
    for (const tool of tools)
      expect((tool.inputSchema as { properties: Record<string, unknown> }).properties.target).toMatchObject({ type: "string", minLength: 1 });
    expect(byName.get("relayPost")!.description).toContain("Send a request to any endpoint");
  });

  it("in one file, the operation's own keys win over the shared object's", () => {
    const shared = {
      summary: "shared",
      parameters: [{ name: "target", in: "path", required: true, schema: { type: "string" } }],
      requestBody: { content: { "application/json": { schema: { type: "object", properties: { a: { type: "integer" } } } } } },
      responses: { "200": { description: "ok" } },
    };
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      "x-shared": { relay: shared },
      paths: {
        "/{target}": {
          get: { $ref: "#/x-shared/relay", operationId: "relayGet", summary: "its own summary" },
          put: {
            $ref: "#/x-shared/relay",
            operationId: "relayPut",
            requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { b: { type: "string" } } } } } },
          },
        },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document }, {});
    expect(skipped).toEqual([]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("relayGet")!.description).toContain("its own summary");
    const put = byName.get("relayPut")!;
    const body = (put.inputSchema as { properties: { body: { properties: Record<string, unknown> } } }).properties.body;
    expect(Object.keys(body.properties)).toEqual(["b"]);
    expect(shape(put).required).toEqual(["body", "target"]);
    // The operation is where it is written; the source names it there.
    expect(put.source.pointer).toBe("/paths/~1{target}/put");
  });

  it("a $ref to nothing skips that operation alone, naming the $ref", () => {
    const document = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/things": {
          get: { operationId: "listThings", responses: { "200": { description: "ok" } } },
          post: { operationId: "addThing", $ref: "#/x-shared/missing" },
        },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document }, {});
    expect(tools.map((tool) => tool.name)).toEqual(["listThings"]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.name).toBe("addThing");
    expect(skipped[0]!.reason).toMatch(/operation \$ref "#\/x-shared\/missing" points at nothing/);
  });
});
