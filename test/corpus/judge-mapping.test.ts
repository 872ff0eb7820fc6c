// Documents the judge could not read, each built the way the full corpus run met it, so every
// operation of such a document is judged rather than counted as a harness error or unjudged:
// - `$id`s: box.com repeats an example's `"$id"` and akeneo.com a 3.0 schema's `$id`; ajv refused
//   the whole document ("resolves to more than one schema"). In 3.0 a Schema Object has no
//   `$id`, and data holds no identifier in any version; in 3.1 a schema's `$id` is one.
// - a `$ref` through a nullable schema (DigitalOcean's `.../users/items`, `users` nullable):
//   the judge's spelling of `nullable` moves the schema, and the pointer named nothing.
// - a boolean `exclusiveMinimum` in a 3.1 document (OpenAI's `createFineTuningJob`): the guard
//   reads it as 3.0 does, and ajv's 2020-12 refused to compile it.
// - a path item that is a `$ref` to another (surevoip.co.uk's `/support/ip-address`): the
//   generator read the operation's schemas by pointers through the referring path, which name
//   nothing (a skip, "expected a schema object"), and the judge found no operation there. The
//   tool's pointer is now the operation the `$ref` reaches (test/openapi/path-item-ref.test.ts).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { asWrittenJudge, docRef } from "./as-written.ts";
import { judgeDocument, TEMP_ROOT } from "./judge-document.ts";
import { entryFor } from "./test-entry.ts";

type Node = Record<string, unknown>;

mkdirSync(TEMP_ROOT, { recursive: true });
const dir = mkdtempSync(path.join(TEMP_ROOT, "judge-mapping-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = { "200": { description: "done" } };
const info = { title: "t", version: "1" };
const servers = [{ url: "https://api.example.com" }];
const json = (schema: Node): Node => ({ content: { "application/json": { schema } } });

/** Two schemas with one `$id` (a 3.0 keyword that is not one), and an example that repeats another. */
function repeatedIds(openapi: string): Node {
  const metadata = { $id: "01234500-12f1-1234-aa12-b1d234cb567e", $type: "properties" };
  return {
    openapi,
    info,
    servers,
    paths: {
      "/products": {
        post: {
          operationId: "createProduct",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Product" }, example: { identifier: "p1", metadata } } },
          },
          responses: ok,
        },
      },
      "/drafts": { post: { operationId: "createDraft", requestBody: { required: true, ...json({ $ref: "#/components/schemas/Draft" }) }, responses: ok } },
    },
    components: {
      schemas: {
        Product: {
          $id: "https://example.com/product",
          type: "object",
          properties: { identifier: { type: "string" }, metadata: { type: "object", example: metadata } },
          required: ["identifier"],
          example: { identifier: "p0", metadata },
        },
        Draft: {
          $id: "https://example.com/product",
          type: "object",
          // A property named `$id` is a name, never an identifier.
          properties: { $id: { type: "string", example: metadata.$id }, title: { type: "string", maxLength: 8 } },
          "x-sample": metadata,
        },
      },
    },
  };
}

describe("`$id`s as the document's version reads them", () => {
  it("judges a 3.0 document that repeats an `$id` in schemas and in examples (box.com, akeneo.com)", async () => {
    const judge = asWrittenJudge(repeatedIds("3.0.3"));
    const draft = judge(docRef("/components/schemas/Draft"));
    expect(draft({ $id: "a", title: "short" })).toBe(true);
    expect(draft({ title: "far too long" })).toBe(false);
    const result = await judgeDocument(entryFor(dir, "repeated-ids-30", repeatedIds("3.0.3")), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(2);
    expect(result.oracle.unjudged).toEqual({});
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.examples).toBeGreaterThan(0);
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });

  it("keeps a 3.1 schema's `$id` an identifier, and still reads none in data", () => {
    const document = repeatedIds("3.1.0");
    const schemas = (document.components as { schemas: Record<string, Node> }).schemas;
    schemas.Draft!.$id = "https://example.com/draft";
    schemas.ByIdentifier = { $ref: "https://example.com/draft" };
    const byIdentifier = asWrittenJudge(document)(docRef("/components/schemas/ByIdentifier"));
    expect(byIdentifier({ title: "short" })).toBe(true);
    expect(byIdentifier({ title: "far too long" })).toBe(false);
  });
});

describe("pointers through a nullable schema (DigitalOcean's `$ref`s into a response)", () => {
  const document: Node = {
    openapi: "3.0.3",
    info,
    servers,
    paths: {
      "/databases": {
        get: {
          operationId: "listDatabases",
          responses: {
            "200": json({
              type: "object",
              properties: {
                users: { type: "array", nullable: true, items: { type: "object", properties: { name: { type: "string", maxLength: 8 } }, required: ["name"] } },
              },
            }),
          },
        },
      },
      "/users": {
        post: {
          operationId: "addUser",
          requestBody: {
            required: true,
            ...json({ $ref: "#/paths/~1databases/get/responses/200/content/application~1json/schema/properties/users/items" }),
          },
          responses: ok,
        },
      },
    },
  };

  it("follows a `$ref` through the nullable schema to the schema it names", () => {
    const users = asWrittenJudge(document)(docRef("/paths/~1databases/get/responses/200/content/application~1json/schema/properties/users"));
    expect(users(null)).toBe(true);
    expect(users([{ name: "ann" }])).toBe(true);
    const item = asWrittenJudge(document)(docRef("/paths/~1databases/get/responses/200/content/application~1json/schema/properties/users/items"));
    expect(item({ name: "ann" })).toBe(true);
    expect(item({ name: "far too long" })).toBe(false);
    expect(item(null)).toBe(false);
  });

  it("judges the operation whose body is such a `$ref`", async () => {
    const result = await judgeDocument(entryFor(dir, "through-nullable", document), { typecheck: false });
    expect(result.oracle.unjudged).toEqual({});
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });
});

describe("3.0's boolean exclusive bounds in a 3.1 document (OpenAI's createFineTuningJob)", () => {
  it("reads `exclusiveMinimum: true` beside `minimum` as the exclusive bound, as the guard does", () => {
    const document: Node = {
      openapi: "3.1.0",
      info,
      paths: {},
      components: {
        schemas: {
          Rate: {
            anyOf: [
              { type: "string", enum: ["auto"] },
              { type: "number", minimum: 0, maximum: 2, exclusiveMinimum: true },
            ],
          },
          Open: { type: "number", minimum: 0, exclusiveMinimum: false },
        },
      },
    };
    const rate = asWrittenJudge(document)(docRef("/components/schemas/Rate"));
    expect(rate(0.5)).toBe(true);
    expect(rate(2)).toBe(true);
    expect(rate("auto")).toBe(true);
    expect(rate(0)).toBe(false);
    expect(rate(2.5)).toBe(false);
    const open = asWrittenJudge(document)(docRef("/components/schemas/Open"));
    expect(open(0)).toBe(true);
    expect(open(-1)).toBe(false);
  });
});

describe("a path item that is a `$ref` to another (surevoip.co.uk)", () => {
  it("judges the operation through the path that refers to it", async () => {
    const document: Node = {
      openapi: "3.0.3",
      info,
      servers,
      paths: {
        "/ip-address": {
          get: {
            parameters: [{ name: "format", in: "query", schema: { type: "string", enum: ["json", "text"] } }],
            responses: ok,
          },
        },
        "/support/ip-address": { $ref: "#/paths/~1ip-address" },
      },
    };
    const result = await judgeDocument(entryFor(dir, "path-item-ref", document), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(2);
    expect(result.oracle.unjudged).toEqual({});
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });
});
