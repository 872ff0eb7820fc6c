// A `#/...` `$ref` that points at nothing, inside `components` (issue 32): the bundler met it
// before any operation was read and refused the whole document. Now only the operations that
// reach it are skipped, each with a reason naming the pointer and where the `$ref` is written;
// every other operation becomes a tool. Each of the loader's three ways is taken: the one-file
// walk, json-schema-ref-parser (a document with a `$ref` through another `$ref`), and the split
// bundler (a `$ref` to another file, and a dangling pointer inside that file).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

const info = { title: "t", version: "1" };
const body = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
const post = (operationId: string, schema: unknown) => ({ post: { operationId, requestBody: body(schema), responses: { 200: { description: "ok" } } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function paths(): Record<string, unknown> {
  return {
    "/good": post("good", { type: "object", properties: { n: { type: "integer" } } }),
    "/uses-good-component": post("usesGood", ref("Pet")),
    "/broken": post("broken", ref("Broken")),
    "/broken-deep": post("brokenDeep", { type: "object", properties: { inner: { type: "array", items: ref("Owner") } } }),
    "/broken-parameter": {
      get: { operationId: "brokenParameter", parameters: [{ $ref: "#/components/parameters/Limit" }], responses: { 200: { description: "ok" } } },
    },
  };
}

function components(): Record<string, unknown> {
  return {
    schemas: {
      Pet: { type: "object", properties: { name: { type: "string" } } },
      Broken: { type: "object", properties: { q: ref("Missing") } },
      // Reaches the broken component through another one.
      Owner: { type: "object", properties: { pet: ref("Broken") } },
      // Nothing reaches this one: it must not matter.
      Unused: { allOf: [ref("AlsoMissing")] },
    },
    parameters: { Limit: { name: "limit", in: "query", schema: { $ref: "#/components/schemas/Pet/properties/nope" } } },
  };
}

const layouts: Record<string, () => Record<string, unknown>> = {
  "one file, plain pointers": () => ({ "schemas/api.json": { openapi: "3.0.3", info, paths: paths(), components: components() } }),
  "one file, bundled by json-schema-ref-parser": () => ({
    "schemas/api.json": {
      openapi: "3.0.3",
      info,
      paths: { ...paths(), "/through": post("through", { $ref: "#/components/schemas/Alias/properties/name" }) },
      components: { ...components(), schemas: { ...(components().schemas as object), Alias: ref("Pet") } },
    },
  }),
  // An `$id` is no identifier in a 3.0 Schema Object (and never in data): `#` stays the document,
  // so the dangling `$ref` is still found (json-schema-ref-parser refused the whole document).
  "one file whose schemas and examples carry an $id (3.0)": () => ({
    "schemas/api.json": {
      openapi: "3.0.3",
      info,
      paths: paths(),
      components: {
        ...components(),
        schemas: {
          ...(components().schemas as object),
          Pet: { $id: "https://example.com/pet", type: "object", properties: { name: { type: "string" } }, example: { $id: "pet-1", name: "Rex" } },
        },
      },
    },
  }),
  "split over files": () => ({
    "schemas/api.json": {
      openapi: "3.0.3",
      info,
      paths: { ...paths(), "/split": { $ref: "paths/split.json" }, "/orphan": post("orphanBroken", { $ref: "models/orphan.json#/definitions/Gone" }) },
      components: { ...components(), schemas: { ...(components().schemas as object), Split: { $ref: "models/split.json" } } },
    },
    "schemas/paths/split.json": post("splitBroken", { $ref: "../models/split.json" }),
    // A pointer into this file that points at nothing.
    "schemas/models/split.json": { type: "object", properties: { a: { $ref: "#/definitions/Gone" } }, definitions: {} },
    // Named only by a pointer to nothing: it is written nowhere in the bundle.
    "schemas/models/orphan.json": { definitions: {} },
  }),
};

describe("a dangling $ref inside components", () => {
  for (const [layout, files] of Object.entries(layouts)) {
    it(`skips only the operations that reach it, naming the pointer (${layout})`, async () => {
      const project = newProject(files());
      const { code, stdout, stderr } = await project.run("generate", "--no-cache");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      const pkg = await import(path.join(project.dir, "generated/index.js"));
      expect(pkg.good).toBeDefined();
      expect(pkg.usesGood).toBeDefined();
      if (layout.includes("ref-parser")) expect(pkg.through).toBeDefined();
      for (const skipped of ["broken", "brokenDeep", "brokenParameter"]) expect(pkg[skipped], skipped).toBeUndefined();
      const skips = stdout.split("\n").filter((line) => /^\s+\w+ \(api\.json#/.test(line));
      const reason = (name: string) => skips.find((line) => line.trimStart().startsWith(`${name} (`)) ?? `no skip line for ${name}`;
      expect(reason("broken")).toMatch(/#\/components\/schemas\/Missing" points at nothing \(at #\/components\/schemas\/Broken\/properties\/q\/\$ref\)/);
      expect(reason("brokenDeep")).toMatch(/#\/components\/schemas\/Missing" points at nothing/);
      expect(reason("brokenParameter")).toMatch(/#\/components\/schemas\/Pet\/properties\/nope/);
      if (layout.startsWith("split")) {
        expect(pkg.splitBroken).toBeUndefined();
        expect(reason("splitBroken")).toMatch(/\/definitions\/Gone" points at nothing/);
        expect(pkg.orphanBroken).toBeUndefined();
        expect(reason("orphanBroken")).toMatch(/"#\/x-toolguard-not-bundled\/models~1orphan\.json\/definitions\/Gone" points at nothing/);
      }
      expect(stdout).toMatch(new RegExp(`skipped ${layout.startsWith("split") ? 5 : 3} operations`));
    });
  }

  it("looks a `#/...` `$ref` up in the schema resource an `$id` makes (3.1), and refuses no other operation", async () => {
    const document = {
      openapi: "3.1.0",
      info,
      paths: { ...paths(), "/tagged": post("tagged", ref("Tagged")) },
      components: {
        ...components(),
        schemas: {
          ...(components().schemas as object),
          // `#/$defs/Name` is this resource's own; `#/components/...` does not exist in it.
          Tagged: {
            $id: "https://example.com/tagged",
            type: "object",
            properties: { name: { $ref: "#/$defs/Name" }, gone: { $ref: "#/components/schemas/Pet" } },
            $defs: { Name: { type: "string" } },
          },
        },
      },
    };
    const project = newProject({ "schemas/api.json": document });
    const { code, stdout } = await project.run("generate", "--no-cache");
    expect(code).toBe(0);
    const pkg = await import(path.join(project.dir, "generated/index.js"));
    expect(pkg.good).toBeDefined();
    expect(pkg.usesGood).toBeDefined();
    for (const skipped of ["broken", "brokenDeep", "brokenParameter", "tagged"]) expect(pkg[skipped], skipped).toBeUndefined();
    expect(stdout).toMatch(/tagged \(api\.json#\/paths\/~1tagged\/post\): `\$id` changes how references resolve/);
    expect(stdout).toMatch(/skipped 4 operations/);
  });

  // scalar/galaxy 0.6.12 (MIT, `dist/latest.yaml`): a response schema binds a generic page with
  // `{$id, $defs: {itemType: {$dynamicAnchor, $ref: "#/components/schemas/Planet"}}, $ref:
  // "#/components/schemas/PaginatedResource"}`. Looked up in that resource, the `$ref` beside the
  // `$id` leads only to itself; the loader followed it 64 times, called it no dangling pointer,
  // and json-schema-ref-parser's "Missing $ref pointer" refused the whole document.
  it("reads a 3.1 resource's own `$ref` beside its `$id` as pointing at nothing, and refuses no other operation", async () => {
    const page = (at: string) => ({
      $id: `https://example.com/schemas/${at}`,
      $defs: { itemType: { $dynamicAnchor: "itemType", $ref: "#/components/schemas/Pet" } },
      $ref: "#/components/schemas/Page",
    });
    const document = {
      openapi: "3.1.1",
      info,
      paths: {
        "/good": post("good", { type: "object", properties: { n: { type: "integer" } } }),
        "/pages": {
          get: {
            operationId: "listPages",
            parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
            responses: { 200: { description: "ok", content: { "application/json": { schema: page("PetPage") } } } },
          },
        },
        "/page-body": post("sendPage", page("PetPageBody")),
      },
      components: {
        schemas: {
          Pet: { type: "object", properties: { name: { type: "string" } } },
          Page: {
            $id: "https://example.com/schemas/Page",
            $defs: { itemType: { $dynamicAnchor: "itemType", not: {} } },
            type: "object",
            properties: { data: { type: "array", items: { $dynamicRef: "#itemType" } } },
          },
        },
      },
    };
    const project = newProject({ "schemas/api.json": document });
    const { code, stdout, stderr } = await project.run("generate", "--no-cache");
    expect(`${stdout}${stderr}`).not.toMatch(/nothing was written/);
    expect(code).toBe(0);
    const pkg = await import(path.join(project.dir, "generated/index.js"));
    expect(pkg.good).toBeDefined();
    expect(pkg.listPages).toBeDefined();
    expect(pkg.sendPage).toBeUndefined();
    expect(stdout).toMatch(/sendPage \(api\.json#\/paths\/~1page-body\/post\): `\$id` changes how references resolve/);
  });

  it("--strict still refuses the document, naming each operation", async () => {
    const project = newProject(layouts["one file, plain pointers"]?.() ?? {});
    const { code, stdout, stderr } = await project.run("generate", "--no-cache", "--strict");
    expect(code).not.toBe(0);
    expect(`${stdout}${stderr}`).toMatch(/#\/components\/schemas\/Missing/);
  });
});
