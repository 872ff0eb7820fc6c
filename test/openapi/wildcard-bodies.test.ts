// A request body offered only as `*/*` (issue 32: Kubernetes' create and replace operations, 292 of
// its 845, were skipped as "no JSON media type"). A wildcard says the server takes any media type;
// JSON is one, so a body whose schema is an object or an array becomes the tool's `body` and the
// dispatcher sends it as JSON text with Content-Type application/json, to a real server on
// loopback. A wildcard body of raw bytes (a string schema) stays skipped with its reason.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const namespace = {
  type: "object",
  properties: { kind: { type: "string" }, metadata: { $ref: "#/components/schemas/ObjectMeta" } },
};
const document = {
  openapi: "3.0.3",
  info: { title: "cluster", version: "1" },
  servers: [{ url: "https://cluster.example.com" }],
  paths: {
    "/api/v1/namespaces": {
      post: {
        operationId: "createNamespace",
        requestBody: { required: true, content: { "*/*": { schema: { $ref: "#/components/schemas/Namespace" } } } },
        responses: { "201": { description: "made" } },
      },
    },
    "/api/v1/patches": {
      patch: {
        operationId: "patchList",
        requestBody: { content: { "application/*": { schema: { type: "array", items: { type: "object" } } } } },
        responses: { "200": { description: "done" } },
      },
    },
    "/api/v1/uploads": {
      post: {
        operationId: "upload",
        requestBody: { content: { "*/*": { schema: { type: "string", format: "binary" } } } },
        responses: { "200": { description: "done" } },
      },
    },
  },
  components: { schemas: { Namespace: namespace, ObjectMeta: { properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } } },
};

let project: TempProject;
let server: Server;
let baseUrl = "";
let stdout = "";
const seen: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  project = new TempProject({ "schemas/cluster.json": document });
  const generated = await project.run("generate");
  expect(generated.code, generated.stderr).toBe(0);
  stdout = generated.stdout;
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ headers: request.headers, body });
      response.writeHead(201, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  project.remove();
});

async function guarded(name: string) {
  const pkg = await import(path.join(project.dir, "generated/index.js"));
  const dispatch = pkg.createHttpDispatcher({ baseUrl });
  return pkg[name].implement((args: unknown) => dispatch(pkg[name].http, args), { ledger: new pkg.MemorySink() });
}

describe("request bodies offered as */*", () => {
  it("an object or an array schema becomes the tool's body, sent as application/json", async () => {
    const create = await guarded("createNamespace");
    const body = { kind: "Namespace", metadata: { name: "team-a" } };
    expect(await create.call({ body }, { turn: "w1" })).toMatchObject({ status: "ok", result: { status: 201 } });
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen.at(-1)?.body ?? "")).toEqual(body);
    const patch = await guarded("patchList");
    expect((await patch.call({ body: [{ op: "add" }] }, { turn: "w2" })).status).toBe("ok");
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
  });

  it("is guarded by its schema: nothing is sent for a refused body", async () => {
    const before = seen.length;
    const create = await guarded("createNamespace");
    const refused = await create.call({ body: { kind: "Namespace", metadata: {} } }, { turn: "w3" });
    expect(refused.status).toBe("validation_failed");
    expect(refused.errors.map((error: { path: string; rule: string }) => `${error.path} ${error.rule}`)).toEqual(["/body/metadata/name required"]);
    expect(seen.length).toBe(before);
  });

  it("raw bytes under */* stay skipped, with the media type named", () => {
    expect(stdout).toContain("upload");
    expect(stdout).toContain("request body has no JSON media type, form, multipart form or text (offers */*)");
    expect(stdout).not.toMatch(/createNamespace \(|patchList \(/);
  });
});
