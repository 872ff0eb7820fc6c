// The OpenAPI dispatcher under hostile arguments (issue 15, findings 3, 11 and 17): values that
// would leave the operation's path, override other parameters, inject query structure or break
// header framing. A refused request is never signed (the auth hook is not called) nor sent.
import { describe, expect, it } from "vitest";
import { buildRequest, createHttpDispatcher, type HttpRequestDraft } from "../../templates/runtime/dispatch/http-dispatch.ts";
import { UnsafeRequestError } from "../../templates/runtime/dispatch/unsafe-request.ts";
import type { HttpBinding, HttpParameter } from "../../templates/runtime/contract/tool-spec.ts";

const BASE = "https://api.example.com/api/v3";
const binding = (path: string, parameters: HttpParameter[], method = "post"): HttpBinding => ({ method, path, parameters, servers: [BASE] });
const pathParam = (name: string, style = "simple", explode = false): HttpParameter => ({ arg: name, name, in: "path", style, explode });

async function send(b: HttpBinding, args: Record<string, unknown>, headers?: Record<string, string>) {
  const signed: string[] = [];
  const sent: string[] = [];
  const dispatch = createHttpDispatcher({
    ...(headers ? { headers } : {}),
    auth: (request: HttpRequestDraft) => {
      signed.push(request.url.href);
    },
    fetch: (async (url: URL) => {
      sent.push(String(url));
      return new Response(null, { status: 204 });
    }) as typeof fetch,
  });
  const result = await dispatch(b, args).catch((error: unknown) => error);
  return { result, signed, sent };
}

describe("path parameters stay inside the operation's path", () => {
  const issues = binding("/repos/{owner}/{repo}/issues", [pathParam("owner"), pathParam("repo")]);
  it.each([
    ["..", ".."],
    [".", "x"],
    ["%2e%2e", "x"],
    ["%2E.", "x"],
    ["", "x"],
  ])("owner %j, repo %j: refused before signing", async (owner, repo) => {
    const { result, signed, sent } = await send(issues, { owner, repo });
    expect(result).toBeInstanceOf(UnsafeRequestError);
    expect(signed).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("an empty id or an empty list does not address the collection", async () => {
    const item = binding("/items/{id}", [pathParam("id")], "delete");
    expect((await send(item, { id: "" })).result).toBeInstanceOf(UnsafeRequestError);
    expect((await send(item, { id: [] })).result).toBeInstanceOf(UnsafeRequestError);
    expect(buildRequest(item, { id: "a.b" }).url.pathname).toBe("/api/v3/items/a.b");
  });

  it("label style encodes a dot inside a value, so '.' never becomes '..'", async () => {
    const label = binding("/items/{id}", [pathParam("id", "label")]);
    expect((await send(label, { id: "." })).result).toBeInstanceOf(UnsafeRequestError);
    expect(buildRequest(label, { id: "a.b" }).url.pathname).toBe("/api/v3/items/.a%2Eb");
    expect(buildRequest(binding("/items/{id}", [pathParam("id", "label", true)]), { id: ["x", "y"] }).url.pathname).toBe("/api/v3/items/.x.y");
  });

  it("a valid request is signed once, with the URL that is sent", async () => {
    const { result, signed, sent } = await send(issues, { owner: "octo", repo: "hello" });
    expect(result).toMatchObject({ status: 204 });
    expect(signed).toEqual(["https://api.example.com/api/v3/repos/octo/hello/issues"]);
    expect(sent).toEqual(signed);
  });
});

describe("object parameters cannot pollute the request", () => {
  it("an exploded query object cannot repeat or override another query parameter", async () => {
    const list = binding(
      "/items",
      [
        { arg: "limit", name: "limit", in: "query", style: "form", explode: true },
        { arg: "filter", name: "filter", in: "query", style: "form", explode: true },
      ],
      "get",
    );
    const { result, sent } = await send(list, { limit: 5, filter: { limit: "100000", admin: "true" } });
    expect(result).toBeInstanceOf(UnsafeRequestError);
    expect(sent).toEqual([]);
    expect(buildRequest(list, { limit: 5, filter: { status: "open" } }).url.search).toBe("?limit=5&status=open");
  });

  it.each(['{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": 1}}', '{"a][b": 1}', '{"ok": {"x[y]": 1}}'])(
    "deepObject key in %s is refused",
    async (filter) => {
      const deep = binding("/items", [{ arg: "deep", name: "deep", in: "query", style: "deepObject", explode: true }], "get");
      expect((await send(deep, { deep: JSON.parse(filter) })).result).toBeInstanceOf(UnsafeRequestError);
    },
  );

  it("header lists and objects encode the separators inside their values", () => {
    const header = (explode: boolean): HttpBinding => binding("/x", [{ arg: "role", name: "X-Role", in: "header", style: "simple", explode }]);
    expect(buildRequest(header(true), { role: { role: "user,role=admin" } }).headers.get("x-role")).toBe("role=user%2Crole%3Dadmin");
    expect(buildRequest(header(false), { role: ["a,b", "c"] }).headers.get("x-role")).toBe("a%2Cb,c");
    expect(buildRequest(header(true), { role: { R: 100, G: 200 } }).headers.get("x-role")).toBe("R=100,G=200");
  });
});

describe("headers and cookies: framing and precedence", () => {
  const withHeader = binding("/x", [
    { arg: "trace", name: "X-Trace", in: "header", style: "simple", explode: false },
    { arg: "tenant", name: "X-Tenant", in: "header", style: "simple", explode: false },
    { arg: "session", name: "session", in: "cookie", style: "form", explode: true },
    { arg: "sid", name: "sid", in: "cookie", style: "form", explode: true },
  ]);

  it("CR, LF and characters above U+00FF are percent-encoded instead of making the call throw", () => {
    const request = buildRequest(withHeader, { trace: "a\r\nX-Evil: 1", tenant: "café €" });
    expect(request.headers.get("x-trace")).toBe("a%0D%0AX-Evil: 1");
    expect(request.headers.get("x-tenant")).toBe("caf%C3%A9 %E2%82%AC");
    expect(request.headers.has("x-evil")).toBe(false);
  });

  it("the application's headers and cookies win over the model's parameters; other cookies are appended", () => {
    const request = buildRequest(withHeader, { tenant: "other", sid: "model", session: "abc" }, { headers: { "X-Tenant": "acme", cookie: "sid=app" } });
    expect(request.headers.get("x-tenant")).toBe("acme");
    expect(request.headers.get("cookie")).toBe("sid=app; session=abc");
  });

  it("without application headers the parameters are sent", () => {
    const request = buildRequest(withHeader, { tenant: "t1", session: "abc" });
    expect(request.headers.get("x-tenant")).toBe("t1");
    expect(request.headers.get("cookie")).toBe("session=abc");
  });
});
