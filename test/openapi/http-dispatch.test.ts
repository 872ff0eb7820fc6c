// The HTTP dispatcher against a real node:http server on loopback: what arrives on the wire is
// what OpenAPI's style/explode rules say, and the response comes back parsed.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest, createHttpDispatcher, type HttpRequestDraft } from "../../templates/runtime/dispatch/http-dispatch.ts";
import type { HttpBinding, HttpParameter } from "../../templates/runtime/contract/tool-spec.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      if (request.url?.startsWith("/api/text")) {
        response.writeHead(200, { "content-type": "text/plain" }).end("plain words");
      } else if (request.url?.startsWith("/api/empty")) {
        response.writeHead(204).end();
      } else {
        response
          .writeHead(201, { "content-type": "application/json; charset=utf-8", "x-trace": "t-1" })
          .end(JSON.stringify({ echoed: entry.body === "" ? null : JSON.parse(entry.body) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const binding: HttpBinding = {
  method: "POST",
  path: "/repos/{owner}/{repo}/issues",
  parameters: [
    { arg: "owner", name: "owner", in: "path", style: "simple", explode: false, required: true },
    { arg: "repo", name: "repo", in: "path", style: "simple", explode: false, required: true },
    { arg: "labels", name: "labels", in: "query", style: "form", explode: true },
    { arg: "sort", name: "sort", in: "query", style: "form", explode: false },
    { arg: "requestId", name: "X-Request-Id", in: "header", style: "simple", explode: false },
    { arg: "session", name: "session", in: "cookie", style: "form", explode: true },
  ],
  body: { arg: "body", contentType: "application/json", required: true },
  servers: ["https://api.example.com"],
};

describe("createHttpDispatcher", () => {
  it("sends path, query, header, cookie and JSON body, and returns status, headers and parsed JSON", async () => {
    const seen: HttpRequestDraft[] = [];
    const dispatch = createHttpDispatcher({
      baseUrl,
      headers: { "user-agent": "toolguard-test" },
      auth: (request) => {
        seen.push(request);
        request.headers.set("authorization", "Bearer secret");
      },
    });
    const result = await dispatch(binding, {
      owner: "octo cat",
      repo: "hello/world",
      labels: ["bug", "help wanted"],
      sort: ["created", "asc"],
      requestId: "r-1",
      session: "abc",
      body: { title: "Found a bug", assignees: ["octocat"] },
    });
    expect(result.status).toBe(201);
    expect(result.headers["x-trace"]).toBe("t-1");
    expect(result.body).toEqual({ echoed: { title: "Found a bug", assignees: ["octocat"] } });
    const request = received.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/repos/octo%20cat/hello%2Fworld/issues?labels=bug&labels=help%20wanted&sort=created,asc");
    expect(request.headers["x-request-id"]).toBe("r-1");
    expect(request.headers.cookie).toBe("session=abc");
    expect(request.headers.authorization).toBe("Bearer secret");
    expect(request.headers["user-agent"]).toBe("toolguard-test");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(seen).toHaveLength(1);
  });

  it("leaves out absent optional parameters and the absent optional body", async () => {
    const dispatch = createHttpDispatcher({ baseUrl });
    const result = await dispatch(
      { ...binding, path: "/empty/{owner}/{repo}", body: { arg: "body", contentType: "application/json", required: false } },
      { owner: "a", repo: "b" },
    );
    expect(result).toEqual({ status: 204, headers: expect.any(Object), body: null });
    const request = received.at(-1)!;
    expect(request.url).toBe("/api/empty/a/b");
    expect(request.body).toBe("");
    expect(request.headers["content-type"]).toBeUndefined();
  });

  it("returns a non-JSON response as text", async () => {
    const result = await createHttpDispatcher({ baseUrl })({ method: "GET", path: "/text", parameters: [], servers: [] }, {});
    expect(result.body).toBe("plain words");
  });

  it("passes the caller's abort signal to fetch and sets no timeout of its own", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createHttpDispatcher({ baseUrl })({ method: "GET", path: "/text", parameters: [], servers: [] }, {}, controller.signal)).rejects.toThrow(
      /abort/i,
    );
  });

  it("uses an injected fetch and the document's server by default", async () => {
    const urls: string[] = [];
    const fakeFetch = (async (input: string | URL | Request) => {
      urls.push(String(input));
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    await createHttpDispatcher({ fetch: fakeFetch })(binding, { owner: "o", repo: "r", body: {} });
    expect(urls).toEqual(["https://api.example.com/repos/o/r/issues"]);
  });

  it("refuses to guess a base URL", () => {
    expect(() => buildRequest({ ...binding, servers: ["/v1"] }, { owner: "o", repo: "r" })).toThrow(/pass baseUrl/);
  });
});

// OpenAPI 3.1's style examples: color = "blue" | ["blue","black","brown"] | {R:100,G:200,B:150}.
const primitive = "blue";
const array = ["blue", "black", "brown"];
const object = { R: 100, G: 200, B: 150 };

function serialised(parameter: Omit<HttpParameter, "arg" | "name">, value: unknown): string {
  const path = parameter.in === "path" ? "/{color}" : "/";
  const request = buildRequest({ method: "GET", path, parameters: [{ arg: "color", name: "color", ...parameter }], servers: ["http://h"] }, { color: value });
  if (parameter.in === "header") return request.headers.get("color") ?? "";
  return decodeURI(request.url.pathname.slice(1) + request.url.search);
}

describe("style and explode", () => {
  it.each([
    ["path simple", { in: "path", style: "simple", explode: false }, ["blue", "blue,black,brown", "R,100,G,200,B,150"]],
    ["path simple explode", { in: "path", style: "simple", explode: true }, ["blue", "blue,black,brown", "R=100,G=200,B=150"]],
    ["path label", { in: "path", style: "label", explode: false }, [".blue", ".blue,black,brown", ".R,100,G,200,B,150"]],
    ["path label explode", { in: "path", style: "label", explode: true }, [".blue", ".blue.black.brown", ".R=100.G=200.B=150"]],
    ["path matrix", { in: "path", style: "matrix", explode: false }, [";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"]],
    ["path matrix explode", { in: "path", style: "matrix", explode: true }, [";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"]],
    ["query form", { in: "query", style: "form", explode: false }, ["?color=blue", "?color=blue,black,brown", "?color=R,100,G,200,B,150"]],
    ["query form explode", { in: "query", style: "form", explode: true }, ["?color=blue", "?color=blue&color=black&color=brown", "?R=100&G=200&B=150"]],
    ["query spaceDelimited", { in: "query", style: "spaceDelimited", explode: false }, ["?color=blue", "?color=blue black brown", "?color=R 100 G 200 B 150"]],
    ["query pipeDelimited", { in: "query", style: "pipeDelimited", explode: false }, ["?color=blue", "?color=blue|black|brown", "?color=R|100|G|200|B|150"]],
    ["header simple", { in: "header", style: "simple", explode: false }, ["blue", "blue,black,brown", "R,100,G,200,B,150"]],
    ["header simple explode", { in: "header", style: "simple", explode: true }, ["blue", "blue,black,brown", "R=100,G=200,B=150"]],
  ] as const)("%s", (_name, parameter, [wantPrimitive, wantArray, wantObject]) => {
    expect(serialised(parameter, primitive)).toBe(wantPrimitive);
    expect(serialised(parameter, array)).toBe(wantArray);
    expect(serialised(parameter, object)).toBe(wantObject);
  });

  it("deepObject", () => {
    expect(
      decodeURIComponent(
        buildRequest(
          { method: "GET", path: "/", parameters: [{ arg: "f", name: "filter", in: "query", style: "deepObject", explode: true }], servers: ["http://h"] },
          { f: { state: "open", user: { login: "octo" } } },
        ).url.search,
      ),
    ).toBe("?filter[state]=open&filter[user][login]=octo");
  });

  it("percent-encodes reserved characters in values", () => {
    expect(serialised({ in: "path", style: "simple", explode: false }, "a/b?c#d")).toBe("a%2Fb%3Fc%23d");
    expect(
      buildRequest({ method: "GET", path: "/", parameters: [{ arg: "q", name: "q", in: "query" }], servers: ["http://h"] }, { q: "a&b=c d" }).url.search,
    ).toBe("?q=a%26b%3Dc%20d");
  });
});
