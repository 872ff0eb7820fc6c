// An OpenAPI operation end to end: generated from the Petstore document, bound to the default
// HTTP dispatcher, called with the model's arguments, and received by a real HTTP server on
// loopback. Invalid arguments never leave the process.
import { cpSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

let project: TempProject;
let server: Server;
let baseUrl = "";
const seen: Seen[] = [];

beforeAll(async () => {
  project = new TempProject();
  cpSync(path.join(import.meta.dirname, "../fixtures/openapi/petstore-3.0.yaml"), path.join(project.dir, "schemas/petstore.yaml"));
  const result = await project.run("generate");
  expect(result.code).toBe(0);
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      response.writeHead(request.method === "POST" ? 201 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: true, echo: request.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  project.remove();
});

async function load() {
  return import(path.join(project.dir, "generated/index.js"));
}

describe("a generated OpenAPI tool dispatching over HTTP", () => {
  it("serialises validated arguments into path, query, headers and JSON body", async () => {
    const pkg = await load();
    const dispatch = pkg.createHttpDispatcher({ baseUrl, auth: (request: { headers: Headers }) => request.headers.set("authorization", "Bearer t0ken") });
    const listPets = pkg.listPets.implement((args: unknown, ctx: { signal?: AbortSignal }) => dispatch(pkg.listPets.http, args, ctx.signal), {
      ledger: new pkg.MemorySink(),
    });
    const createPet = pkg.createPet.implement((args: unknown, ctx: { signal?: AbortSignal }) => dispatch(pkg.createPet.http, args, ctx.signal), {
      ledger: new pkg.MemorySink(),
    });

    const listed = await listPets.call('{"limit": "10", "tags": ["small", "brown dog"], "X-Request-Id": "4b1f6b7e-8f0a-4f3e-9a51-0c8a2d0f7c11"}', {
      turn: "t1",
    });
    expect(listed).toMatchObject({ status: "ok", coercions: [{ path: "/limit", to: 10 }], result: { status: 200, body: { ok: true } } });
    const created = await createPet.call({ body: { name: "Rex", kind: "dog" } }, { turn: "t2" });
    expect(created).toMatchObject({ status: "ok", result: { status: 201 } });

    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/v1/pets?limit=10&tags=small,brown%20dog" });
    expect(seen[0]?.headers["x-request-id"]).toBe("4b1f6b7e-8f0a-4f3e-9a51-0c8a2d0f7c11");
    expect(seen[0]?.headers.authorization).toBe("Bearer t0ken");
    expect(seen[1]).toMatchObject({ method: "POST", url: "/v1/pets" });
    expect(seen[1]?.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(seen[1]?.body ?? "")).toEqual({ name: "Rex", kind: "dog" });
  });

  it("never sends a request for invalid arguments", async () => {
    const pkg = await load();
    const before = seen.length;
    const dispatch = pkg.createHttpDispatcher({ baseUrl });
    const createPet = pkg.createPet.implement((args: unknown) => dispatch(pkg.createPet.http, args), { ledger: new pkg.MemorySink() });
    const outcome = await createPet.call({ body: { name: "", kind: "parrot", id: 7 } }, { turn: "t3" });
    expect(outcome.status).toBe("validation_failed");
    expect(outcome.errors.map((error: { path: string; rule: string }) => `${error.path} ${error.rule}`)).toEqual(["/body/kind enum", "/body/name minLength"]);
    expect(seen.length).toBe(before);
  });
});
