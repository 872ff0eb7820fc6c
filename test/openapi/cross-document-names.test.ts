// Two operations that become one tool name are a clash the later one is skipped for. When they
// come from two documents of one set, the usual cause is two descriptions of one API in one
// folder (HubSpot's CRM specs: Objects and Custom Objects both describe
// `GET /crm/v3/objects/{objectType}`; SendGrid's repository holds four descriptions of one API),
// where "give one of the two operations another operationId" would only make two tools of one
// operation: the fix says to read one document (the set's `entry`, or a set per document).
import { describe, expect, it } from "vitest";
import { uniqueNames } from "../../generator/emit/unique-names.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const document = (paths: Record<string, unknown>) => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths,
});
const op = (operationId: string) => ({ operationId, responses: { "200": { description: "ok" } } });

describe("a tool name two operations share", () => {
  it("from two documents of the set: read only one of them, naming the operation both describe", () => {
    const objects = readOpenApi({
      file: "objects/objects.json",
      document: document({ "/objects/{type}": { get: op("getPage"), parameters: [{ name: "type", in: "path", required: true, schema: { type: "string" } }] } }),
    });
    const custom = readOpenApi({
      file: "custom/custom.json",
      document: document({ "/objects/{type}": { get: op("getPage"), parameters: [{ name: "type", in: "path", required: true, schema: { type: "string" } }] } }),
    });
    const { tools, skipped } = uniqueNames([...objects.tools, ...custom.tools]);
    expect(tools.map((tool) => tool.source.file)).toEqual(["objects/objects.json"]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.reason).toContain('tool "getPage" has the same name as tool "getPage" (objects/objects.json#/paths/~1objects~1{type}/get)');
    expect(skipped[0]?.reason).toContain(
      "fix: both documents describe GET /objects/{type}: if the two documents describe one API, read only one of them (name it in the set's `entry`, or give each document a set of its own); otherwise give one of the two operations another operationId",
    );
  });

  it("two different operations of two documents: no operation named, the same two fixes", () => {
    const a = readOpenApi({ file: "a.json", document: document({ "/a": { get: op("list") } }) });
    const b = readOpenApi({ file: "b.json", document: document({ "/b": { get: op("list") } }) });
    const reason = uniqueNames([...a.tools, ...b.tools]).skipped[0]?.reason ?? "";
    expect(reason).toMatch(
      /; fix: if the two documents describe one API, read only one of them .*; otherwise give one of the two operations another operationId$/,
    );
  });

  it("within one document the fix stays a rename", () => {
    const one = readOpenApi({ file: "api.json", document: document({ "/a": { get: op("get-thing") }, "/b": { post: op("get_thing") } }) });
    const reason = uniqueNames(one.tools).skipped[0]?.reason ?? "";
    expect(reason).toMatch(/; fix: give one of the two operations another operationId$/);
  });
});
