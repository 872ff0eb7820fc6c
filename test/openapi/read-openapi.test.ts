// Reading whole OpenAPI documents: Petstore 3.0 (YAML) and 3.1 (JSON), a multi-file document,
// the argument-merging rule, naming, skips, --strict, and bad input.
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../generator/errors.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { toolName } from "../../generator/read/openapi/tool-name.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

async function read(file: string, strict = false) {
  return readOpenApi(await loadOpenApiDocument(path.join(root, file), { root }), { strict });
}

function validator(tool: ToolDescription) {
  // strictTypes off, as the generator's ajv: a type-specific keyword implies no type (issue 32).
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, formats: Object.fromEntries(KEPT_FORMATS.map((name) => [name, true])) });
  return ajv.compile(tool.inputSchema as object);
}

function tool(tools: readonly ToolDescription[], name: string): ToolDescription {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function inputError(run: () => Promise<unknown>): Promise<InputError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}

/** The first error `run` throws, unwrapped from InputErrors (--strict lists every skipped operation). */
function firstError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof InputErrors) return error.errors[0] as Error;
    return error as Error;
  }
  throw new Error("expected an error");
}

describe("Petstore 3.0", () => {
  it("turns every operation with a JSON (or no) body into a tool, and skips the image upload with its reason", async () => {
    const { tools, skipped } = await read("petstore-3.0.yaml");
    expect(tools.map((t) => t.name)).toEqual(["listPets", "createPet", "showPetById", "delete_pets_petId"]);
    expect(skipped).toEqual([
      {
        name: "uploadPhoto",
        source: { file: "petstore-3.0.yaml", pointer: "/paths/~1pets~1{petId}~1photo/put" },
        reason:
          "request body has no JSON media type, form, multipart form or text (offers image/png) (at #/paths/~1pets~1{petId}~1photo/put/requestBody/content)",
      },
    ]);
  });

  it("merges parameters by name and the body under `body`, and binds them for dispatch", async () => {
    const { tools } = await read("petstore-3.0.yaml");
    const list = tool(tools, "listPets");
    expect(Object.keys(list.inputSchema.properties as object)).toEqual(["limit", "tags", "X-Request-Id"]); // Accept is ignored, as OpenAPI says
    expect(list.http).toEqual({
      method: "GET",
      path: "/pets",
      parameters: [
        { arg: "limit", name: "limit", in: "query", style: "form", explode: true, required: false },
        { arg: "tags", name: "tags", in: "query", style: "form", explode: false, required: false },
        { arg: "X-Request-Id", name: "X-Request-Id", in: "header", style: "simple", explode: false, required: false },
      ],
      servers: ["https://eu.petstore.example/v1"],
    });
    const limit = (list.inputSchema.properties as Record<string, unknown>).limit;
    expect(limit).toEqual({ type: "integer", minimum: 1, exclusiveMaximum: 100, description: "How many items to return at one time (max 100)" });

    const create = tool(tools, "createPet");
    expect(create.description).toBe("Create a pet\n\nAdds a pet to the store.");
    expect(create.inputSchema.required).toEqual(["body"]);
    expect(create.http?.body).toEqual({ arg: "body", contentType: "application/json", required: true });
    const validate = validator(create);
    expect(validate({ body: { name: "Rex", kind: "dog", tag: null, birthDate: "2020-01-31" } })).toBe(true);
    expect(validate({ body: { name: "Rex", kind: "dog", id: 1 } })).toBe(true); // readOnly id is neither required nor declared
    expect(validate({ body: { name: "Rex", kind: "cow" } })).toBe(false);
    expect(validate({ name: "Rex", kind: "dog" })).toBe(false); // the body is not spread into the arguments
    const defs = create.inputSchema.$defs as Record<string, { properties: Record<string, unknown>; required: string[] }>;
    expect(Object.keys(defs.NewPet!.properties)).toEqual(["name", "kind", "tag", "birthDate", "secret", "x-internal"]);
    expect(defs.NewPet!.required).toEqual(["name", "kind"]);

    const show = tool(tools, "showPetById");
    expect(show.inputSchema.required).toEqual(["petId"]);
    expect(show.source).toEqual({ file: "petstore-3.0.yaml", pointer: "/paths/~1pets~1{petId}/get" });
    expect(tool(tools, "delete_pets_petId").description).toBe("DELETE /pets/{petId}\n\nDeprecated: prefer another operation where one exists.");
  });

  it("every input schema is 2020-12 and compiles in ajv's strict mode", async () => {
    for (const file of ["petstore-3.0.yaml", "petstore-3.1.json", "split/openapi.yaml"]) {
      for (const t of (await read(file)).tools) {
        expect(t.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
        expect(t.dialect).toBe("2020-12");
        expect(() => validator(t)).not.toThrow();
      }
    }
  });

  it("--strict turns a skip into a failure naming the operation", async () => {
    const error = await read("petstore-3.0.yaml", true).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputErrors);
    expect((error as InputErrors).format()).toContain("petstore-3.0.yaml#/paths/~1pets~1{petId}~1photo/put: operation uploadPhoto cannot become a tool");
  });
});

describe("Petstore 3.1", () => {
  it("validates the discriminated body example and the 3.1 keywords", async () => {
    const { tools, skipped } = await read("petstore-3.1.json");
    expect(skipped).toEqual([]);
    const create = tool(tools, "createPet");
    expect(create.http?.body?.contentType).toBe("application/json; charset=utf-8");
    const validate = validator(create);
    const body = (create.inputSchema.properties as Record<string, { examples: unknown[] }>).body;
    expect(validate({ body: body!.examples[0] })).toBe(true);
    expect(validate({ body: { name: "Tom", petType: "Cat" } })).toBe(false); // the mapping says "cat"

    const update = tool(tools, "updatePet");
    expect(update.http?.body?.contentType).toBe("application/merge-patch+json");
    const check = validator(update);
    expect(check({ petId: "4b1f6b7e-8f0a-4f3e-9a51-0c8a2d0f7c11", fields: { a: "b" }, body: { name: null, weight: 1 } })).toBe(true);
    expect(check({ petId: "x", body: { weight: 0 } })).toBe(false);
  });
});

describe("multi-file documents", () => {
  it("follows $refs into other files under the root", async () => {
    const { tools } = await read("split/openapi.yaml");
    const validate = validator(tool(tools, "createPet"));
    expect(validate({ body: { name: "Rex", owner: { email: "a@example.com" } } })).toBe(true);
    expect(validate({ body: { owner: {} } })).toBe(false);
  });
});

describe("tool names", () => {
  it.each([
    ["issues/create", "post", "/x", "issues_create"],
    [undefined, "get", "/pets/{petId}/photos", "get_pets_petId_photos"],
    ["  ", "put", "/a.b", "put_a_b"],
    ["x".repeat(80), "get", "/", `${"x".repeat(55)}_`],
  ])("%s %s %s -> %s", (operationId, method, route, want) => {
    const name = toolName(operationId, method, route);
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(name.startsWith(want)).toBe(true);
  });

  it("one operationId on two routes (gRPC-gateway's extra bindings): the skip says OpenAPI requires it unique, and which route is the tool", () => {
    const document = {
      openapi: "3.0.3",
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/api/v1/activities/complete": { post: { operationId: "RespondCompleted", responses: {} } },
        "/activities/complete": { post: { operationId: "RespondCompleted", responses: {} } },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(tools.map((t) => t.http?.path)).toEqual(["/api/v1/activities/complete"]);
    expect(skipped[0]?.reason).toContain(
      'both become tool "RespondCompleted" (both have operationId "RespondCompleted", which OpenAPI requires to be unique in a document; the tool is the operation at #/paths/~1api~1v1~1activities~1complete/post)',
    );
  });

  it("two operations with one name: the second is skipped naming both (--strict: an error)", () => {
    const document = {
      openapi: "3.0.3",
      paths: { "/a": { get: { operationId: "a.b", responses: {} } }, "/b": { get: { operationId: "a/b", responses: {} } } },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(tools.map((t) => t.name)).toEqual(["a_b"]);
    expect(skipped[0]?.reason).toMatch(/operation GET \/b and the operation at #\/paths\/~1a\/get both become tool "a_b"/);
    // Two spellings that map to one name are not the same operationId.
    expect(skipped[0]?.reason).not.toContain("unique");
    expect(() => readOpenApi({ file: "api.json", document }, { strict: true })).toThrow(InputErrors);
    expect(firstError(() => readOpenApi({ file: "api.json", document }, { strict: true })).message).toMatch(
      /operation GET \/b and the operation at #\/paths\/~1a\/get both become tool "a_b"/,
    );
  });
});

describe("bad input", () => {
  it("a document that is not OpenAPI 3 (a Swagger one, read alone, names Swagger)", async () => {
    const error = await inputError(() => read("not-openapi.json"));
    expect(error.location).toEqual({ file: "not-openapi.json", pointer: "/swagger" });
    expect(error.message).toMatch(/a Swagger "2\.0" document, not OpenAPI 3\.0, 3\.1 or 3\.2/);
    expect(() => readOpenApi({ file: "x.json", document: { info: {} } })).toThrow(/not an OpenAPI 3\.0, 3\.1 or 3\.2 document \(no `openapi` field\)/);
    expect(() => readOpenApi({ file: "v2.json", document: { openapi: "2.0" } })).toThrow(/openapi: "2\.0"/);
    expect(() => readOpenApi({ file: "v4.json", document: { openapi: "4.0.0", paths: {} } })).toThrow(/openapi: "4\.0\.0"/);
  });

  it("a $ref to a missing file names the $ref's pointer and the operation", async () => {
    const error = await inputError(() => read("broken-ref.yaml"));
    expect(error.location).toEqual({ file: "broken-ref.yaml", pointer: "/paths/~1pets/post/requestBody/content/application~1json/schema/$ref" });
    expect(error.message).toMatch(/broken \$ref "\.\/schemas\/missing\.yaml" used by operation createPet \(POST \/pets\)/);
  });

  // Issue 32: it refused the whole document; now only the operations that reach it are skipped
  // (test/openapi/dangling-refs.test.ts), and --strict refuses naming the $ref's pointer.
  it("a dangling internal $ref skips the operation reaching it, naming the $ref's pointer", async () => {
    const { tools, skipped } = await read("dangling-ref.yaml");
    expect(tools).toEqual([]);
    expect(skipped.map((skip) => [skip.name, skip.reason])).toEqual([
      [
        "createPet",
        expect.stringMatching(/\$ref "#\/components\/schemas\/Owner" points at nothing \(at #\/components\/schemas\/Pet\/properties\/owner\/\$ref\)/),
      ],
    ]);
  });

  it("parameters that would share an argument name: the operation is skipped with the fix (--strict: an error)", async () => {
    const { tools, skipped } = await read("conflicting-parameters.yaml");
    expect(tools.map((t) => t.name)).not.toContain("getItem");
    expect(skipped.find((skip) => skip.name === "getItem")?.reason).toMatch(
      /^parameters path "id" and query "id" both become argument "id" \(at #\/paths\/~1items~1\{id\}\/get\/parameters\/1\); fix: rename one in the config, without editing the document: "argumentNames": \{"getItem": \{"query\.id": "query_id"\}\} in the set; or set "x-toolguard-arg"/,
    );
    const error = await inputError(() =>
      read("conflicting-parameters.yaml", true).catch((failure) =>
        Promise.reject(
          firstError(() => {
            throw failure;
          }),
        ),
      ),
    );
    expect(error.location).toEqual({ file: "conflicting-parameters.yaml", pointer: "/paths/~1items~1{id}/get/parameters/1" });
    expect(error.message).toBe('operation getItem (GET /items/{id}): parameters path "id" and query "id" both become argument "id"');
    expect(error.fix).toMatch(/x-toolguard-arg/);
  });

  it("x-toolguard-arg resolves the conflict", () => {
    const document = {
      openapi: "3.0.3",
      paths: {
        "/items/{id}": {
          get: {
            operationId: "getItem",
            responses: {},
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              { name: "id", in: "query", schema: { type: "string" }, "x-toolguard-arg": "queryId" },
            ],
          },
        },
      },
    };
    const [only] = readOpenApi({ file: "api.json", document }).tools;
    expect(Object.keys(only!.inputSchema.properties as object)).toEqual(["id", "queryId"]);
    expect(only!.http?.parameters[1]).toMatchObject({ arg: "queryId", name: "id", in: "query" });
  });

  it.each([
    [
      "the same parameter twice",
      [
        { name: "id", in: "path", required: true, schema: {} },
        { name: "q", in: "query", schema: {} },
        { name: "q", in: "query", schema: {} },
      ],
      {},
      /query parameter "q" is declared twice/,
    ],
    [
      "a parameter called body beside a request body",
      [
        { name: "id", in: "path", required: true, schema: {} },
        { name: "body", in: "query", schema: {} },
      ],
      { requestBody: { content: { "application/json": { schema: {} } } } },
      /would take the argument "body"/,
    ],
    ["a path template without its parameter", [], {}, /path template names \{id\}/],
  ])("%s: the operation is skipped with its reason (--strict: an error naming it)", (_name, parameters, extra, message) => {
    const document = { openapi: "3.0.3", paths: { "/items/{id}": { post: { operationId: "op", responses: {}, parameters, ...extra } } } };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(tools).toEqual([]);
    expect(skipped[0]?.reason).toMatch(message);
    const run = () => {
      throw firstError(() => readOpenApi({ file: "api.json", document }, { strict: true }));
    };
    expect(run).toThrow(InputError);
    expect(run).toThrow(message);
    expect(run).toThrow(/operation op \(POST \/items\/\{id\}\)/);
  });
});
