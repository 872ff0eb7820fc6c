// An argument whose schema admits no value (`enum: []`, which JSON Schema allows, `false`, or
// `not: {}`). Discord's description writes `enum: []` beside an `allOf` on an optional query
// parameter and an optional body field. Before: a tool file holding one refused the whole run
// ("does not compile: enum must have non-empty array", with a fix about unknown keywords), and an
// OpenAPI path or query parameter that is required and admits nothing became a tool no call of
// which can pass, without a word. Now a required one (through required objects) skips its tool
// with that reason, --strict refuses it, and an optional one gets a warning; the guard refuses a
// call that sends it and accepts one that leaves it out.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

const ok = { "200": { description: "done" } };
const emptyStatus = { type: "string", enum: [], allOf: [{ $ref: "#/components/schemas/Status" }] };
const document = {
  openapi: "3.1.0",
  info: { title: "requests", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/requests": {
      get: {
        operationId: "listRequests",
        parameters: [
          { name: "status", in: "query", schema: emptyStatus },
          { name: "limit", in: "query", schema: { type: "integer" } },
        ],
        responses: ok,
      },
    },
    "/kinds/{kind}": {
      get: { operationId: "getKind", parameters: [{ name: "kind", in: "path", required: true, schema: { enum: [] } }], responses: ok },
    },
    "/filters": {
      post: {
        operationId: "filter",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Filter" } } } },
        responses: ok,
      },
    },
  },
  components: {
    schemas: {
      Status: { type: "string", oneOf: [{ const: "STARTED" }, { const: "REJECTED" }] },
      // Reached through a $ref and an allOf: still required all the way down.
      Filter: { allOf: [{ type: "object", required: ["where"], properties: { where: { $ref: "#/components/schemas/Where" } } }] },
      Where: { type: "object", required: ["mode"], properties: { mode: { not: {} }, text: { type: "string" } } },
    },
  },
};

const toolList = {
  tools: [
    mcpTool("pick_mode", { type: "object", required: ["mode"], properties: { mode: { type: "string", enum: [] } } }),
    mcpTool("search", { type: "object", properties: { mode: { type: "string", enum: [] }, q: { type: "string" } }, required: ["q"] }),
    mcpTool("nested", {
      type: "object",
      required: ["options"],
      properties: { options: { type: "object", required: ["sort"], properties: { sort: { $ref: "#/$defs/none" } } } },
      $defs: { none: { anyOf: [{ enum: [] }, false] } },
    }),
    mcpTool("get_item", { type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
  ],
};

type Outcome = { status: string; errors?: { path: string; rule: string; message: string }[] };
type Package = Record<string, { implement(run: () => unknown, options: object): { call(raw: string, context: object): Promise<Outcome> } }> & {
  MemorySink: new () => unknown;
};

async function generated(files: Record<string, unknown>, ...argv: string[]) {
  const project = new TempProject(files);
  projects.push(project);
  return { project, result: await project.run("generate", "--no-cache", ...argv) };
}

describe("an argument that admits no value", () => {
  it("in a tool file: a required one skips its tool with the reason, an optional one is a warning", async () => {
    const { project, result } = await generated({ "schemas/server.json": toolList });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'pick_mode (server.json#/tools/0): argument "mode" is required but its schema accepts no value (an empty `enum`, `false` or `not: {}`), so no call of this tool can pass (at input schema #/properties/mode)',
    );
    expect(result.stdout).toContain('nested (server.json#/tools/2): argument "options.sort" is required but its schema accepts no value');
    expect(result.stdout).toContain(
      'server.json: argument "mode" at input schema #/properties/mode accepts no value (an empty `enum`, `false` or `not: {}`): every call that sends it is refused, so it can only be left out (tool search)',
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/does not compile|\n\s+at /);
    const files = Object.keys(project.snapshot("generated")).filter((file) => /^tools\/[^/]+\.js$/.test(file));
    expect(files.sort()).toEqual(["tools/get-item.js", "tools/search.js"]);
    const pkg = (await import(path.join(project.dir, "generated/index.js"))) as Package;
    const search = pkg.search!.implement(() => "ran", { ledger: new pkg.MemorySink() });
    expect((await search.call(JSON.stringify({ q: "a" }), { turn: "t1" })).status).toBe("ok");
    const sent = await search.call(JSON.stringify({ q: "a", mode: "x" }), { turn: "t2" });
    expect(sent.status).toBe("validation_failed");
    expect(sent.errors?.map((error) => error.path)).toContain("/mode");
  });

  it("in an OpenAPI document: required path parameters and required body fields through $ref and allOf skip their operation", async () => {
    const { project, result } = await generated({ "schemas/api.json": document });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('getKind (api.json#/paths/~1kinds~1{kind}/get): argument "kind" is required but its schema accepts no value');
    expect(result.stdout).toMatch(/filter \(api\.json#\/paths\/~1filters\/post\): .*"mode" is required but its schema accepts no value/);
    expect(result.stdout).toContain('api.json: argument "status" at input schema #/properties/status accepts no value');
    const pkg = (await import(path.join(project.dir, "generated/index.js"))) as Package;
    expect(Object.keys(pkg).filter((name) => name !== "MemorySink" && typeof pkg[name]?.implement === "function")).toEqual(["listRequests"]);
    const list = pkg.listRequests!.implement(() => "ran", { ledger: new pkg.MemorySink() });
    expect((await list.call(JSON.stringify({ limit: 5 }), { turn: "t1" })).status).toBe("ok");
    expect((await list.call(JSON.stringify({ status: "STARTED" }), { turn: "t2" })).status).toBe("validation_failed");
  });

  it("--strict refuses a tool no call of which can pass, naming the file, the tool and the argument", async () => {
    const { result } = await generated({ "schemas/server.json": toolList }, "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('server.json#/tools/0: tool pick_mode: argument "mode" is required but its schema accepts no value');
    expect(result.stderr).toContain("fix: give the argument a schema some value satisfies, or leave the tool out");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
