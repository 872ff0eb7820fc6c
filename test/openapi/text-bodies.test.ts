// Request bodies of a text media type whose schema is a string (issue 32: GitHub's
// `POST /markdown/raw`, Lichess's PGN imports, CSV uploads were skipped as "no JSON media type").
// The tool's `body` is that string schema; the generated guard validates it, and the dispatcher
// sends the string as it is (no JSON quotes) with the operation's media type, to a real server on
// loopback. Text whose schema is not a string stays skipped with its reason.
// Fixture: fixtures/openapi/text-bodies.yaml.
import { cpSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { TempProject } from "../helpers/temp-project.ts";

const fixture = path.resolve(import.meta.dirname, "../fixtures/openapi/text-bodies.yaml");

let result: ReadResult;
let project: TempProject;
let server: Server;
let baseUrl = "";
const seen: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  result = readOpenApi(await loadOpenApiDocument(fixture, { root: path.dirname(fixture) }));
  project = new TempProject();
  cpSync(fixture, path.join(project.dir, "schemas/text-bodies.yaml"));
  const generated = await project.run("generate");
  expect(generated.code, generated.stderr).toBe(0);
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ headers: request.headers, body });
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  project.remove();
});

function tool(name: string): ToolDescription {
  const found = result.tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}; skipped: ${JSON.stringify(result.skipped)}`);
  return found;
}

const bodySchema = (name: string): unknown => (tool(name).inputSchema.properties as Record<string, unknown>).body;

/** The generated tool, guarded and bound to the default dispatcher. */
async function guarded(name: string) {
  const pkg = await import(path.join(project.dir, "generated/index.js"));
  const dispatch = pkg.createHttpDispatcher({ baseUrl });
  return pkg[name].implement((args: unknown) => dispatch(pkg[name].http, args), { ledger: new pkg.MemorySink() });
}

describe("text request bodies whose schema is a string", () => {
  it("become tools whose `body` is the string schema, text/plain taken first", () => {
    expect(tool("renderMarkdown").http?.body).toEqual({ arg: "body", contentType: "text/plain", required: true });
    expect(bodySchema("renderMarkdown")).toEqual({ type: "string", minLength: 1, description: "The Markdown to render.", examples: ["Hello **world**"] });
    expect(tool("putRows").http?.body).toMatchObject({ contentType: "text/csv; charset=utf-8" });
    expect(bodySchema("putRows")).toMatchObject({ $ref: "#/$defs/Csv" });
    // No schema under a text media type: any text.
    expect(bodySchema("postNote")).toEqual({ type: "string" });
    // A form beside the text: the form's object of fields is the richer argument.
    expect(tool("createToken").http?.body?.contentType).toBe("application/x-www-form-urlencoded");
  });

  it("are validated by the generated guard and sent as they are, with the operation's media type", async () => {
    const render = await guarded("renderMarkdown");
    const text = 'Hello **world**\r\n\n"quoted" & <b>tags</b> ünïcode';
    expect(await render.call({ body: text }, { turn: "t1" })).toMatchObject({ status: "ok", result: { status: 200 } });
    expect(seen.at(-1)?.headers["content-type"]).toBe("text/plain");
    expect(seen.at(-1)?.body).toBe(text);

    const rows = await guarded("putRows");
    expect(await rows.call({ body: "a,b\nc,d\n" }, { turn: "t2" })).toMatchObject({ status: "ok" });
    expect(seen.at(-1)?.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(seen.at(-1)?.body).toBe("a,b\nc,d\n");
  });

  it("refuses what the body schema refuses, and sends nothing", async () => {
    const before = seen.length;
    const render = await guarded("renderMarkdown");
    const empty = await render.call({ body: "" }, { turn: "t3" });
    expect(empty.status).toBe("validation_failed");
    expect(empty.errors.map((error: { path: string; rule: string }) => `${error.path} ${error.rule}`)).toEqual(["/body minLength"]);
    // An object where the text goes (GitHub's own example writes `{"text": ...}`) is refused, not stringified.
    const object = await render.call({ body: { text: "Hello" } }, { turn: "t4" });
    expect(object.status).toBe("validation_failed");
    const rows = await guarded("putRows");
    expect((await rows.call({ body: "A;B" }, { turn: "t5" })).status).toBe("validation_failed");
    expect(seen.length).toBe(before);
  });
});

describe("text bodies that stay skipped", () => {
  it.each([
    [
      "postObject",
      'request body has no JSON media type, and none it offers can be sent from JSON arguments (text/plain: its schema has type "object", not a string of text)',
    ],
    [
      "postMaybe",
      "request body has no JSON media type, and none it offers can be sent from JSON arguments (text/plain: its schema allows null, and null is no text to send)",
    ],
  ])("%s, with its reason", (name, reason) => {
    expect(result.skipped.find((skip) => skip.name === name)?.reason).toBe(
      `${reason} (at #/paths/~1${name === "postObject" ? "objects" : "maybe"}/post/requestBody/content)`,
    );
  });
});
