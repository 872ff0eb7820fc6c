// OpenAPI 3.2 documents are read as 3.1 ones (the same schema dialect, JSON Schema 2020-12), with
// 3.2's path item additions: the `query` method and `additionalOperations` become tools, sent by
// the dispatcher with their own method to a real server on loopback. A 3.2 document was refused
// whole ("not an OpenAPI 3.0 or 3.1 document"). What 3.2 adds that cannot be sent (a `querystring`
// parameter) skips its operation only, and an `additionalOperations` key that is no method, or
// that a fixed field describes, is that operation's mistake alone.
// Fixtures: fixtures/openapi/openapi-3.2.json, query-key-3.1.json.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { createHttpDispatcher } from "../../templates/runtime/dispatch/http-dispatch.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");
const read = async (file: string): Promise<ReadResult> => readOpenApi(await loadOpenApiDocument(path.join(root, file), { root }));

let result: ReadResult;
let server: Server;
let baseUrl = "";
let last: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string } | undefined;

beforeAll(async () => {
  result = await read("openapi-3.2.json");
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      last = { method: request.method, url: request.url, headers: request.headers, body };
      response.writeHead(200, { "content-type": "application/json" });
      response.end("[]");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const tool = (name: string): ToolDescription => {
  const found = result.tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name}; tools: ${result.tools.map((candidate) => candidate.name).join(", ")}`);
  return found;
};

describe("OpenAPI 3.2", () => {
  it("reads the document, its 3.2 dialect included, with the query method and additionalOperations as tools", () => {
    expect(result.tools.map((candidate) => candidate.name).sort()).toEqual(["copyPets", "listPets", "queryPets"]);
    expect(tool("queryPets").http).toMatchObject({ method: "QUERY", path: "/pets" });
    expect(tool("copyPets").http).toMatchObject({ method: "COPY", path: "/pets" });
    expect(tool("copyPets").source.pointer).toBe("/paths/~1pets/additionalOperations/COPY");
    const body = (tool("queryPets").inputSchema as { properties: Record<string, { required?: string[] }> }).properties.body;
    expect(body?.required).toEqual(["species"]);
    // 3.2's Example `dataValue` is the example the model sees (its `serializedValue` is the wire form).
    expect((tool("listPets").inputSchema as { properties: Record<string, { examples?: unknown[] }> }).properties.limit?.examples).toEqual([10]);
  });

  it("skips only the operations 3.2 constructs stop, each with its reason", () => {
    const reasons = Object.fromEntries(result.skipped.map((skip) => [skip.name, skip.reason]));
    expect(Object.keys(reasons).sort()).toEqual(["createPet", "searchPets", "spaced"]);
    expect(reasons.searchPets).toContain("a `querystring` parameter");
    expect(reasons.searchPets).toContain("#/paths/~1search/get/parameters/0/in");
    expect(reasons.createPet).toContain("which the path item's own `post` field describes");
    expect(reasons.spaced).toContain('"NOT A TOKEN" of /pets is not an HTTP method');
  });

  it("the dispatcher sends a QUERY with its JSON body and a COPY with its header", async () => {
    const dispatch = createHttpDispatcher({ baseUrl });
    const queried = await dispatch(tool("queryPets").http!, { body: { species: "cat" } });
    expect(queried.status).toBe(200);
    expect(last).toMatchObject({ method: "QUERY", url: "/v1/pets" });
    expect(JSON.parse(last?.body ?? "")).toEqual({ species: "cat" });
    await dispatch(tool("copyPets").http!, { Destination: "/pets-backup" });
    expect(last).toMatchObject({ method: "COPY", url: "/v1/pets" });
    expect(last?.headers.destination).toBe("/pets-backup");
  });

  it("in a 3.1 document, `query` and `additionalOperations` are no operations", async () => {
    const older = await read("query-key-3.1.json");
    expect(older.tools.map((candidate) => candidate.name)).toEqual(["listPets"]);
    expect(older.skipped).toEqual([]);
  });
});
