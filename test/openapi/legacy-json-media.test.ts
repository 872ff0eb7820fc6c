// Request bodies in an older name for JSON (`text/json`, `application/x-json`, `text/x-json`) are
// JSON bodies: the tool is generated, and the dispatcher sends JSON text with the media type the
// document names, to a real server on loopback. Datadog's v1 description offers `text/json` alone
// for its metric and distribution intake, which were skipped as "no JSON media type".
// Fixture: fixtures/openapi/legacy-json-media.yaml.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { createHttpDispatcher } from "../../templates/runtime/dispatch/http-dispatch.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

let result: ReadResult;
let server: Server;
let baseUrl = "";
let last: { headers: IncomingHttpHeaders; body: string } | undefined;

beforeAll(async () => {
  result = readOpenApi(await loadOpenApiDocument(path.join(root, "legacy-json-media.yaml"), { root }));
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      last = { headers: request.headers, body };
      response.writeHead(202, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const tool = (name: string): ToolDescription | undefined => result.tools.find((candidate) => candidate.name === name);

describe("older names for the JSON media type", () => {
  it("text/json, application/x-json and text/x-json bodies become tools, sent as JSON; text/plain is a text body", () => {
    expect(result.tools.map((candidate) => candidate.name).sort()).toEqual(["submit_event", "submit_note", "submit_raw", "submit_series"]);
    expect(result.skipped).toEqual([]);
    // text/plain is text, not JSON: its string is sent as it is (test/openapi/text-bodies.test.ts).
    expect(tool("submit_raw")?.http?.body?.contentType).toBe("text/plain");
    expect(tool("submit_series")?.http?.body?.contentType).toBe("text/json");
    expect(tool("submit_event")?.http?.body?.contentType).toBe("application/x-json; charset=utf-8");
  });

  it("the body's schema is the document's, and the dispatcher sends it as JSON text under the named media type", async () => {
    const series = tool("submit_series")!;
    const body = (series.inputSchema as { properties: Record<string, { required?: string[] }> }).properties.body;
    expect(body?.required).toEqual(["series"]);
    const args = { body: { series: [{ metric: "cpu.load", points: [1.5, 2] }] } };
    const outcome = await createHttpDispatcher({ baseUrl })(series.http!, args);
    expect(outcome.status).toBe(202);
    expect(last?.headers["content-type"]).toBe("text/json");
    expect(JSON.parse(last?.body ?? "")).toEqual(args.body);
  });
});
