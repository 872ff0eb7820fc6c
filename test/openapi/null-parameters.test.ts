// Issue 27, finding 8: a null optional parameter (OpenAPI 3.0 `nullable`) is left out of the
// request, not sent empty (`?q=`). The class: query in every style, header, cookie, null items
// of arrays and null members of exploded and deepObject objects; a path parameter is required,
// so null there stays refused.
import { describe, expect, it } from "vitest";
import { buildRequest } from "../../templates/runtime/dispatch/http-dispatch.ts";
import { UnsafeRequestError } from "../../templates/runtime/dispatch/unsafe-request.ts";
import type { HttpBinding, HttpParameter } from "../../templates/runtime/contract/tool-spec.ts";

const BASE = "https://api.example.com";
const query = (name: string, style = "form", explode?: boolean): HttpParameter => ({
  arg: name,
  name,
  in: "query",
  style,
  ...(explode === undefined ? {} : { explode }),
});
const binding = (parameters: HttpParameter[], path = "/items"): HttpBinding => ({ method: "get", path, parameters, servers: [BASE] });

describe("a null parameter is left out", () => {
  it.each([
    ["form", undefined],
    ["form", false],
    ["spaceDelimited", false],
    ["pipeDelimited", false],
    ["deepObject", true],
  ])("query, style %s, explode %s: null is not sent; a value beside it is", (style, explode) => {
    const request = buildRequest(binding([query("q", style, explode), query("limit")]), { q: null, limit: 5 });
    expect(request.url.search).toBe("?limit=5");
    expect(buildRequest(binding([query("q", style, explode)]), { q: null }).url.search).toBe("");
  });

  it("header and cookie: null is not sent", () => {
    const parameters: HttpParameter[] = [
      { arg: "trace", name: "X-Trace", in: "header", style: "simple", explode: false },
      { arg: "session", name: "session", in: "cookie", style: "form", explode: true },
      { arg: "theme", name: "theme", in: "cookie", style: "form", explode: true },
    ];
    const request = buildRequest(binding(parameters), { trace: null, session: null, theme: "dark" });
    expect(request.headers.has("x-trace")).toBe(false);
    expect(request.headers.get("cookie")).toBe("theme=dark");
    expect(buildRequest(binding(parameters), { trace: null, session: null }).headers.has("cookie")).toBe(false);
  });

  it("null items of an array and null members of an object are left out", () => {
    expect(buildRequest(binding([query("tags")]), { tags: ["a", null, "b"] }).url.search).toBe("?tags=a&tags=b");
    expect(buildRequest(binding([query("tags", "form", false)]), { tags: ["a", null] }).url.search).toBe("?tags=a");
    expect(buildRequest(binding([query("filter")]), { filter: { status: "open", owner: null } }).url.search).toBe("?status=open");
    expect(buildRequest(binding([query("filter", "form", false)]), { filter: { status: "open", owner: null } }).url.search).toBe("?filter=status,open");
    const deep = buildRequest(binding([query("filter", "deepObject", true)]), { filter: { status: "open", owner: null, range: { from: null, to: 3 } } });
    expect(decodeURIComponent(deep.url.search)).toBe("?filter[status]=open&filter[range][to]=3");
    const header = buildRequest(binding([{ arg: "role", name: "X-Role", in: "header", style: "simple", explode: true }]), { role: { a: "1", b: null } });
    expect(header.headers.get("x-role")).toBe("a=1");
  });

  it("a null path parameter is still refused: it would address another resource", () => {
    const item = binding([{ arg: "id", name: "id", in: "path", style: "simple", explode: false }], "/items/{id}");
    expect(() => buildRequest(item, { id: null })).toThrow(UnsafeRequestError);
  });
});
