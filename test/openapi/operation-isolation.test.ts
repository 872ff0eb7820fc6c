// One operation that cannot become a tool is skipped with its reason and never refuses the rest
// of its document (issue 32). Each broken operation below is a different way an operation can
// fail, planted among good ones: every good operation must still become a tool, every broken one
// must be listed with a reason (and the fix, for the document's own mistakes), and --strict must
// refuse the document naming each of them.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputErrors } from "../../generator/errors.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { TempProject } from "../helpers/temp-project.ts";

const good = (operationId: string) => ({ operationId, responses: { 200: { description: "ok" } } });
const stringSchema = { type: "string" };

/** Broken operations, by the tool name they would have had, and what their skip must say. */
const broken: Record<string, { readonly path: string; readonly item: Record<string, unknown>; readonly reason: RegExp }> = {
  pathAndQueryId: {
    path: "/things/{id}/a",
    item: {
      get: {
        operationId: "pathAndQueryId",
        parameters: [
          { name: "id", in: "path", required: true, schema: stringSchema },
          { name: "id", in: "query", schema: stringSchema },
        ],
      },
    },
    reason:
      /parameters path "id" and query "id" both become argument "id".*fix: rename one in the config.*"argumentNames": \{"pathAndQueryId": \{"query\.id": "query_id"\}\}.*or set "x-toolguard-arg"/,
  },
  duplicateParameter: {
    path: "/dup",
    item: {
      get: {
        operationId: "duplicateParameter",
        parameters: [
          { name: "q", in: "query", schema: stringSchema },
          { name: "q", in: "query", schema: stringSchema },
        ],
      },
    },
    reason: /query parameter "q" is declared twice/,
  },
  namelessParameter: {
    path: "/nameless",
    item: { get: { operationId: "namelessParameter", parameters: [{ in: "query", schema: stringSchema }] } },
    reason: /a parameter needs a string `name`/,
  },
  danglingParameterRef: {
    path: "/dangling-parameter",
    item: { get: { operationId: "danglingParameterRef", parameters: [{ $ref: "#/components/parameters/Nope" }] } },
    reason: /dangling \$ref "#\/components\/parameters\/Nope"/,
  },
  parametersNotArray: {
    path: "/parameters-object",
    item: { get: { operationId: "parametersNotArray", parameters: { q: stringSchema } } },
    reason: /`parameters` must be an array/,
  },
  badHeaderName: {
    path: "/bad-header",
    item: { get: { operationId: "badHeaderName", parameters: [{ name: "X Bad", in: "header", schema: stringSchema }] } },
    reason: /header parameter name "X Bad" is not a valid HTTP token/,
  },
  parameterCalledBody: {
    path: "/body-parameter",
    item: {
      post: {
        operationId: "parameterCalledBody",
        parameters: [{ name: "body", in: "query", schema: stringSchema }],
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
      },
    },
    reason: /would take the argument "body"/,
  },
  missingPathParameter: {
    path: "/items/{itemId}",
    item: { get: { operationId: "missingPathParameter" } },
    reason: /path template names \{itemId\} but no path parameter/,
  },
  // A router's notation (1Panel's swag output, `/apps/:key`): the value would be sent nowhere.
  routerStylePath: {
    path: "/apps/:key",
    item: { get: { operationId: "routerStylePath", parameters: [{ name: "key", in: "path", required: true, schema: stringSchema }] } },
    reason: /path parameter "key" is not in the path template, so its value would be sent nowhere.*fix: write the path segment ":key" as "\{key\}"/,
  },
  parameterNotInPath: {
    path: "/static",
    item: { get: { operationId: "parameterNotInPath", parameters: [{ name: "path", in: "path", required: true, schema: stringSchema }] } },
    reason: /path parameter "path" is not in the path template.*fix: name it in the path as "\{path\}" where its value goes, or remove the parameter/,
  },
  danglingBodyRef: {
    path: "/dangling-body",
    item: { post: { operationId: "danglingBodyRef", requestBody: { $ref: "#/components/requestBodies/Nope" } } },
    reason: /request body \$ref "#\/components\/requestBodies\/Nope" points at nothing/,
  },
  bodyNotObject: {
    path: "/body-string",
    item: { post: { operationId: "bodyNotObject", requestBody: "json please" } },
    reason: /requestBody must be an object/,
  },
  danglingSchemaRef: {
    path: "/dangling-schema",
    item: { get: { operationId: "danglingSchemaRef", parameters: [{ name: "q", in: "query", schema: { $ref: "#/components/schemas/Nope" } }] } },
    reason: /\$ref "#\/components\/schemas\/Nope" points at nothing/,
  },
  referenceOnParameter: {
    path: "/reference-parameter",
    item: {
      get: {
        operationId: "referenceOnParameter",
        parameters: [{ name: "who", in: "query", schema: { type: "string", "x-toolguard-reference": { kind: "user", target: "user_id" } } }],
      },
    },
    reason: /x-toolguard-reference on the parameter who/,
  },
  "get_not-an-operation": {
    path: "/not-an-operation",
    item: { get: "list them" },
    reason: /GET \/not-an-operation is not an Operation Object/,
  },
  "/dangling-path-item": {
    path: "/dangling-path-item",
    item: { $ref: "#/components/pathItems/Nope" },
    reason: /path item \$ref "#\/components\/pathItems\/Nope" points at nothing/,
  },
};

function document(): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    // A Specification Extension: allowed in the Paths Object, never a path.
    "x-vendor-notes": { owner: "team-a", reviewed: true },
    "x-order": ["/pets", "/pets/{petId}"],
    "/pets": { get: good("listPets"), post: { ...good("createPet"), requestBody: { content: { "application/json": { schema: { type: "object" } } } } } },
    "/pets/{petId}": { parameters: [{ name: "petId", in: "path", required: true, schema: stringSchema }], get: good("showPet") },
    // Two operations with one tool name: the first keeps it, the second is skipped naming the first.
    "/clash/a": { get: good("clash") },
    "/clash/b": { get: good("clash") },
  };
  for (const { path, item } of Object.values(broken)) paths[path] = item;
  paths["/last"] = { get: good("lastGood") };
  return { openapi: "3.0.3", info: { title: "t", version: "1" }, paths };
}

describe("one broken operation never refuses the rest of its document", () => {
  it("every good operation becomes a tool; every broken one is skipped with its reason", () => {
    const { tools, skipped } = readOpenApi({ file: "api.json", document: document() });
    expect(tools.map((tool) => tool.name)).toEqual(["listPets", "createPet", "showPet", "clash", "lastGood"]);
    const reasons = Object.fromEntries(skipped.map((skip) => [skip.name, skip.reason]));
    expect(Object.keys(reasons).sort()).toEqual([...Object.keys(broken), "clash"].sort());
    for (const [name, { reason }] of Object.entries(broken)) expect(reasons[name], name).toMatch(reason);
    expect(reasons.clash).toMatch(
      /operation GET \/clash\/b and the operation at #\/paths\/~1clash~1a\/get both become tool "clash".*fix: give them distinct operationIds/,
    );
    // Each skip points at the operation (or path item) it comes from.
    const pathAndQuery = skipped.find((skip) => skip.name === "pathAndQueryId");
    expect(pathAndQuery?.source).toEqual({ file: "api.json", pointer: "/paths/~1things~1{id}~1a/get" });
  });

  it("--strict refuses the document, naming every broken operation with its own error", () => {
    let caught: unknown;
    try {
      readOpenApi({ file: "api.json", document: document() }, { strict: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputErrors);
    const errors = (caught as InputErrors).errors;
    expect(errors).toHaveLength(Object.keys(broken).length + 1);
    expect(errors.find((error) => /both become argument "id"/.test(error.message))?.fix).toMatch(/x-toolguard-arg/);
  });

  it("an `x-` key under `paths` is an extension, not a path item", () => {
    const { tools, skipped } = readOpenApi({
      file: "api.json",
      document: { openapi: "3.1.0", paths: { "x-internal": "yes", "x-list": [1, 2], "/a": { get: good("a") } } },
    });
    expect(tools.map((tool) => tool.name)).toEqual(["a"]);
    expect(skipped).toEqual([]);
  });
});

describe("an operation whose tool cannot be emitted", () => {
  let project: TempProject | undefined;
  afterEach(() => project?.remove());

  // A lookbehind `pattern` is refused while the validator is compiled (no linear-time match),
  // after reading: that operation is skipped with the reason, the rest is written.
  const api = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/a": {
        post: { ...good("createA"), requestBody: { content: { "application/json": { schema: { type: "object", properties: { n: { type: "string" } } } } } } },
      },
      "/b": {
        post: {
          ...good("createB"),
          requestBody: {
            content: { "application/json": { schema: { type: "object", properties: { n: { type: "string", pattern: "^[a-z_]+(?<!_)$" } } } } },
          },
        },
      },
    },
  };

  it("is skipped with its reason; the others are written", async () => {
    project = new TempProject({ "schemas/api.json": api });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/createB \(api\.json#\/paths\/~1b\/post\): pattern "\^\[a-z_\]\+\(\?<!_\)\$" at .* is refused.*; fix: /);
    expect(existsSync(path.join(project.dir, "generated/tools/create-a.js"))).toBe(true);
    expect(existsSync(path.join(project.dir, "generated/tools/create-b.js"))).toBe(false);
    expect(project.read("generated/index.js")).not.toContain("createB");
  });

  it("--strict refuses the run with the error, nothing written", async () => {
    project = new TempProject({ "schemas/api.json": api });
    const result = await project.run("generate", "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/tool createB: pattern .* is refused/);
    expect(existsSync(path.join(project.dir, "generated"))).toBe(false);
  });
});
