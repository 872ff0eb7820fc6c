// Form bodies (issue 32: 88% of the operations a pilot skipped had them): a model fills `body`
// as a JSON object, and the dispatcher sends it as the operation's media type says, to a real
// server on loopback that parses what arrives (URLSearchParams for a form, the fetch standard's
// multipart parser for a multipart form). File parts and raw bytes stay skipped with a reason.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { buildRequest, createHttpDispatcher } from "../../templates/runtime/dispatch/http-dispatch.ts";
import { UnsafeRequestError } from "../../templates/runtime/dispatch/unsafe-request.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

interface Seen {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: Server;
let baseUrl = "";
let last: Seen | undefined;
let tools: readonly ToolDescription[] = [];
let skipped: readonly { name: string; reason: string }[] = [];

beforeAll(async () => {
  ({ tools, skipped } = readOpenApi(await loadOpenApiDocument(path.join(root, "form-bodies.yaml"), { root })));
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      last = { headers: request.headers, body };
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function tool(name: string): ToolDescription {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}; skipped: ${JSON.stringify(skipped)}`);
  return found;
}

/** Validates the arguments against the tool's schema, dispatches them, and returns what the server received. */
async function send(name: string, args: Record<string, unknown>): Promise<Seen> {
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(tool(name).inputSchema as object);
  expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
  last = undefined;
  const result = await createHttpDispatcher({ baseUrl })(tool(name).http!, args);
  expect(result.status).toBe(200);
  return last as unknown as Seen;
}

describe("application/x-www-form-urlencoded bodies", () => {
  it("become tools whose `body` is the form's object schema", () => {
    expect(tool("createToken").http?.body).toEqual({
      arg: "body",
      contentType: "application/x-www-form-urlencoded",
      required: true,
      encoding: { filter: { style: "deepObject", explode: true }, metadata: { contentType: "application/json" } },
    });
    expect((tool("createToken").inputSchema.properties as Record<string, unknown>).body).toMatchObject({ type: "object", required: ["grant_type", "scope"] });
    expect((tool("createCharge").inputSchema.properties as Record<string, unknown>).body).toMatchObject({ $ref: "#/$defs/Charge" });
  });

  it("are sent as a form: arrays repeat the name, deepObject brackets, a JSON-encoded field as JSON text, null as empty", async () => {
    const seen = await send("createToken", {
      body: {
        grant_type: "client_credentials",
        scope: ["read:pets", "write pets"],
        ttl: 3600,
        filter: { state: "open", owner: "a&b" },
        metadata: { team: "x=y" },
        note: null,
      },
    });
    expect(seen.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(seen.body);
    expect([...form]).toEqual([
      ["grant_type", "client_credentials"],
      ["scope", "read:pets"],
      ["scope", "write pets"],
      ["ttl", "3600"],
      ["filter[state]", "open"],
      ["filter[owner]", "a&b"],
      ["metadata", '{"team":"x=y"}'],
      ["note", ""],
    ]);
  });

  it("a form schema behind a $ref", async () => {
    const seen = await send("createCharge", { body: { amount: 500, currency: "eur" } });
    expect(seen.body).toBe("amount=500&currency=eur");
  });

  it("an exploded object's key that names another field is refused, as in a query string", () => {
    const binding = { ...tool("createToken").http!, body: { arg: "body", contentType: "application/x-www-form-urlencoded", required: true } };
    expect(() => buildRequest(binding, { body: { grant_type: "client_credentials", filter: { scope: "admin" }, scope: ["read"] } }, { baseUrl })).toThrow(
      UnsafeRequestError,
    );
  });
});

describe("multipart/form-data bodies without files", () => {
  it("are sent as parts the fetch standard's parser reads back: text, one part per array item, JSON for objects, the encoding's contentType", async () => {
    const seen = await send("sendMessage", {
      body: {
        to: ["ann@example.com", "bob@example.com"],
        text: 'Hi "there"\r\nsecond line',
        priority: 2.5,
        urgent: true,
        options: { track: false },
        raw: { a: 1 },
      },
    });
    expect(seen.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=toolguard-[0-9a-f]{24}$/);
    const parsed = await new Response(seen.body, { headers: { "content-type": seen.headers["content-type"] as string } }).formData();
    expect(parsed.getAll("to")).toEqual(["ann@example.com", "bob@example.com"]);
    expect(parsed.get("text")).toBe('Hi "there"\r\nsecond line');
    expect(parsed.get("priority")).toBe("2.5");
    expect(parsed.get("urgent")).toBe("true");
    expect(parsed.get("options")).toBe('{"track":false}');
    expect(seen.body).toContain('Content-Disposition: form-data; name="options"\r\nContent-Type: application/json\r\n');
    expect(seen.body).toContain('Content-Disposition: form-data; name="raw"\r\nContent-Type: text/plain\r\n');
  });
});

describe("bodies that stay skipped", () => {
  it.each([
    ["uploadPhoto", /multipart\/form-data: the part "file" is a file/],
    ["uploadAlbum", /multipart\/form-data: the part "pages.image" is a file/],
    ["putRaw", /request body has no JSON media type, form, multipart form or text \(offers application\/octet-stream\)/],
    ["postWords", /application\/x-www-form-urlencoded: its schema has type "string", not an object of fields/],
  ])("%s, with its reason", (name, reason) => {
    expect(skipped.find((skip) => skip.name === name)?.reason).toMatch(reason);
  });
});
