// Parameters described by `content` instead of `schema` (a JSON-serialised `filter`, as CMS and
// data APIs write them; issue 32: one API lost 24 of its 136 operations to the skip) become
// arguments with the media type's schema and are sent as JSON text, percent-encoded. A request
// body with `schema: null` is read as no schema, with a warning.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { buildRequest } from "../../templates/runtime/dispatch/http-dispatch.ts";

const filterSchema = {
  type: "object",
  properties: { status: { type: "string", enum: ["draft", "published"] }, tags: { type: "array", items: { type: "string" } } },
  additionalProperties: false,
};

const document = {
  openapi: "3.0.3",
  info: { title: "CMS", version: "1" },
  servers: [{ url: "https://cms.example/api" }],
  paths: {
    "/articles": {
      get: {
        operationId: "listArticles",
        parameters: [
          { name: "filter", in: "query", content: { "application/json": { schema: filterSchema, example: { status: "draft" } } } },
          { name: "limit", in: "query", schema: { type: "integer" } },
          {
            name: "X-Context",
            in: "header",
            required: true,
            content: { "application/json; charset=utf-8": { schema: { type: "object", properties: { locale: { type: "string" } } } } },
          },
        ],
        responses: { 200: { description: "ok" } },
      },
      post: {
        operationId: "createArticle",
        requestBody: { content: { "application/json": { schema: null } } },
        responses: { 201: { description: "created" } },
      },
    },
    "/articles/{selector}": {
      get: {
        operationId: "getBySelector",
        parameters: [{ name: "selector", in: "path", required: true, content: { "application/json": { schema: { type: "object" } } } }],
        responses: { 200: { description: "ok" } },
      },
    },
    "/search": {
      get: {
        operationId: "search",
        parameters: [{ name: "q", in: "query", content: { "text/plain": { schema: { type: "string" } } } }],
        responses: { 200: { description: "ok" } },
      },
    },
    // As Telnyx writes its path ids: any media type, a string schema: the text itself.
    "/reports/{id}": {
      delete: {
        operationId: "deleteReport",
        parameters: [{ name: "id", in: "path", required: true, content: { "*/*": { schema: { type: "string", format: "uuid" } } } }],
        responses: { 200: { description: "ok" } },
      },
    },
    "/tags": {
      get: {
        operationId: "listTags",
        parameters: [{ name: "where", in: "query", content: { "application/xml": { schema: { type: "object" } } } }],
        responses: { 200: { description: "ok" } },
      },
    },
  },
};

const read = () => readOpenApi({ file: "cms.json", document });
const tool = (name: string): ToolDescription => read().tools.find((candidate) => candidate.name === name) as ToolDescription;

describe("parameters described by `content`", () => {
  it("take the media type's schema, examples included, and bind the media type", () => {
    const list = tool("listArticles");
    expect((list.inputSchema.properties as Record<string, unknown>).filter).toEqual({ ...filterSchema, examples: [{ status: "draft" }] });
    expect(list.http?.parameters).toEqual([
      { arg: "filter", name: "filter", in: "query", style: "form", explode: true, required: false, contentType: "application/json" },
      { arg: "limit", name: "limit", in: "query", style: "form", explode: true, required: false },
      { arg: "X-Context", name: "X-Context", in: "header", style: "simple", explode: false, required: true, contentType: "application/json; charset=utf-8" },
    ]);
    const validate = new Ajv2020({ strict: true }).compile(list.inputSchema as object);
    expect(validate({ filter: { status: "published", tags: ["a"] }, "X-Context": {} })).toBe(true);
    expect(validate({ filter: { status: "archived" }, "X-Context": {} })).toBe(false);
  });

  it("are sent as JSON text, percent-encoded in the query and in a header", () => {
    const request = buildRequest(tool("listArticles").http!, { filter: { status: "draft", tags: ["a&b", "ü"] }, limit: 5, "X-Context": { locale: "de" } });
    expect(request.url.search).toBe(`?filter=${encodeURIComponent('{"status":"draft","tags":["a&b","ü"]}')}&limit=5`);
    expect(new URLSearchParams(request.url.search).get("filter")).toBe('{"status":"draft","tags":["a&b","ü"]}');
    expect(JSON.parse(decodeURIComponent(request.headers.get("X-Context") as string))).toEqual({ locale: "de" });
  });

  it("another media type with a string schema is sent as the text itself, in the query or the path", () => {
    const search = tool("search");
    expect(search.http?.parameters[0]).toEqual({ arg: "q", name: "q", in: "query", style: "form", explode: true, required: false });
    expect(buildRequest(search.http!, { q: "a b" }).url.search).toBe("?q=a%20b");
    const remove = tool("deleteReport");
    expect((remove.inputSchema.properties as Record<string, unknown>).id).toEqual({ type: "string", format: "uuid" });
    expect(buildRequest(remove.http!, { id: "0b6f4a0e-3b5c-4c4e-9d7e-0a1b2c3d4e5f" }, { baseUrl: "https://x.example" }).url.pathname).toBe(
      "/reports/0b6f4a0e-3b5c-4c4e-9d7e-0a1b2c3d4e5f",
    );
  });

  it("JSON in a path segment, and a non-JSON media type whose schema is not a string, stay skipped with the reason", () => {
    const reasons = Object.fromEntries(read().skipped.map((skip) => [skip.name, skip.reason]));
    expect(reasons.getBySelector).toMatch(/path parameter "selector" is described by `content` of application\/json: JSON text is not a path segment/);
    expect(reasons.listTags).toMatch(/parameter "where" is described by `content` of media type application\/xml with a schema that is not a string/);
    expect(Object.keys(reasons).sort()).toEqual(["getBySelector", "listTags"]);
  });
});

describe("a request body with `schema: null`", () => {
  it("is read as no schema: any body, with a warning that says so", () => {
    const create = tool("createArticle");
    expect((create.inputSchema.properties as Record<string, unknown>).body).toEqual({});
    expect(create.warnings).toEqual([
      "`schema: null` at #/paths/~1articles/post/requestBody/content/application~1json/schema read as no schema (the body may be any value): null is not a Schema Object; remove it or give a schema",
    ]);
  });
});
