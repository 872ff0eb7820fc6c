// A path and a query parameter with one name (legal in OpenAPI) would be one argument; the
// operation was skipped with the `x-toolguard-arg` fix, which needs editing the vendor's file.
// The set's config renames an argument instead (`argumentNames`), per operation or for every
// operation of the set ("*"), and the skip reason says so (issue 32).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../generator/config.ts";
import { UsageError } from "../../generator/errors.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { withoutAdvice } from "../helpers/advice-output.ts";
import { TempProject } from "../helpers/temp-project.ts";

const text = { type: "string" };
const get = (operationId: string, parameters: unknown[]) => ({ get: { operationId, parameters, responses: { 200: { description: "ok" } } } });
const document = {
  openapi: "3.0.3",
  info: { title: "Items", version: "1" },
  paths: {
    "/items/{id}": get("getItem", [
      { name: "id", in: "path", required: true, schema: text },
      { name: "id", in: "query", schema: text },
      { name: "X-Trace", in: "header", schema: text },
    ]),
    "/boxes/{id}": get("get_box", [
      { name: "id", in: "path", required: true, schema: text },
      { name: "id", in: "query", schema: text },
    ]),
    "/plain": get("plain", [{ name: "X-Trace", in: "header", schema: text }]),
  },
};

const args = (result: ReturnType<typeof readOpenApi>, name: string) =>
  Object.keys((result.tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {}) as object);

describe("argumentNames", () => {
  it("without it, the operation is skipped and the reason gives the config fix", () => {
    const result = readOpenApi({ file: "items.json", document });
    expect(result.tools.map((tool) => tool.name)).toEqual(["plain"]);
    expect(result.skipped.find((skip) => skip.name === "getItem")?.reason).toMatch(
      /both become argument "id".*fix: rename one in the config, without editing the document: "argumentNames": \{"getItem": \{"query\.id": "query_id"\}\} in the set/,
    );
  });

  it('renames per operation (by operationId or tool name) and for every operation ("*"), the operation\'s own entry winning', () => {
    const argumentNames = {
      getItem: { "query.id": "item_filter" },
      get_box: { "path.id": "box_id" },
      "*": { "header.X-Trace": "trace", "query.id": "query_id" },
    };
    const result = readOpenApi({ file: "items.json", document }, { argumentNames });
    expect(result.skipped).toEqual([]);
    expect(args(result, "getItem")).toEqual(["id", "item_filter", "trace"]);
    expect(args(result, "get_box")).toEqual(["box_id", "query_id"]);
    expect(args(result, "plain")).toEqual(["trace"]);
    const http = result.tools.find((tool) => tool.name === "getItem")?.http;
    expect(http?.parameters.map(({ arg, name, in: location }) => [arg, location, name])).toEqual([
      ["id", "path", "id"],
      ["item_filter", "query", "id"],
      ["trace", "header", "X-Trace"],
    ]);
  });

  it("wins over the document's own x-toolguard-arg", () => {
    const withArg = structuredClone(document) as typeof document;
    (withArg.paths["/boxes/{id}"].get.parameters[1] as Record<string, unknown>)["x-toolguard-arg"] = "from_file";
    expect(args(readOpenApi({ file: "items.json", document: withArg }), "get_box")).toEqual(["id", "from_file"]);
    expect(args(readOpenApi({ file: "items.json", document: withArg }, { argumentNames: { get_box: { "query.id": "from_config" } } }), "get_box")).toEqual([
      "id",
      "from_config",
    ]);
  });

  it("a rename that makes a new clash still skips the operation", () => {
    const result = readOpenApi({ file: "items.json", document }, { argumentNames: { getItem: { "query.id": "trace_id", "header.X-Trace": "trace_id" } } });
    expect(result.skipped.find((skip) => skip.name === "getItem")?.reason).toMatch(/both become argument "trace_id"/);
  });
});

describe("the config option", () => {
  const set = (argumentNames: unknown) => resolveConfig({ sets: [{ schemas: "s", out: "o", argumentNames }] }, undefined, "/p").sets[0];

  it("is resolved per set, operations sorted; a parameter name may hold dots", () => {
    expect(set({ b: { "query.a.b": "ab" }, a: { "path.id": "x" } })?.argumentNames).toEqual({ a: { "path.id": "x" }, b: { "query.a.b": "ab" } });
    expect(Object.keys(set({ b: {}, a: {} })?.argumentNames ?? {})).toEqual(["a", "b"]);
    expect(set(undefined)?.argumentNames).toBeUndefined();
  });

  it.each([
    [["getItem"], /sets\[0\]\.argumentNames must map operations/],
    [{ getItem: "query_id" }, /sets\[0\]\.argumentNames\.getItem must map "<in>\.<name>"/],
    [{ getItem: { id: "query_id" } }, /"id" must be "<in>\.<name>" with in one of path, query, header, cookie/],
    [{ getItem: { "body.id": "x" } }, /"body\.id" must be "<in>\.<name>"/],
    [{ getItem: { "query.id": "" } }, /must be a non-empty argument name other than "body"/],
    [{ getItem: { "query.id": "body" } }, /other than "body"/],
    [{ getItem: { "query.id": 3 } }, /must be a non-empty argument name/],
  ])("refuses %j with what it takes", (value, message) => {
    expect(() => set(value)).toThrow(UsageError);
    expect(() => set(value)).toThrow(message);
  });
});

describe("an argumentNames entry that no parameter answers to", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is named in the summary, so a typo does not pass unseen", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "toolguard-args-"));
    writeFileSync(path.join(dir, "items.json"), JSON.stringify(document));
    const result = await readSchemaSet(dir, {
      allowNetwork: false,
      strict: false,
      argumentNames: { getItem: { "query.id": "query_id", "query.idd": "x" }, getItme: { "query.id": "y" } },
    });
    expect(result.tools.map((tool) => tool.name)).toContain("getItem");
    expect(result.notes).toContain(
      'argumentNames renames "getItem": "query.idd", "getItme": "query.id", which no operation of the set has (by operationId or tool name, then "<in>.<name>")',
    );
  });
});

describe("a generated package with a renamed argument", () => {
  let server: Server;
  let baseUrl = "";
  const received: { url?: string; trace?: string }[] = [];
  let project: TempProject | undefined;
  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push({ url: request.url, trace: request.headers["x-trace"] as string | undefined });
      response.setHeader("content-type", "application/json");
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  afterEach(() => project?.remove());

  it("sends each argument as the parameter it stands for", async () => {
    project = new TempProject({
      "schemas/items.json": document,
      "toolguard.config.json": {
        sets: [{ schemas: "schemas", out: "generated", argumentNames: { getItem: { "query.id": "query_id" }, "*": { "header.X-Trace": "trace" } } }],
      },
    });
    const result = await project.run("generate", "--no-cache");
    expect(withoutAdvice(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/skipped 1 operation/); // get_box: no entry for it
    const pkg = await import(path.join(project.dir, "generated/index.js"));
    const dispatch = pkg.createHttpDispatcher({ baseUrl });
    const tool = pkg.getItem.implement((input: unknown, ctx: { signal?: AbortSignal }) => dispatch(pkg.getItem.http, input, ctx.signal), {
      ledger: new pkg.MemorySink(),
    });
    const outcome = await tool.call('{"id":"a 1","query_id":"b","trace":"t-9"}', { turn: "t" });
    expect(outcome).toMatchObject({ status: "ok" });
    expect(received.at(-1)).toEqual({ url: "/items/a%201?id=b", trace: "t-9" });
  });
});
