// Issue 27, finding 1: a redirect must not carry credentials or the body to another origin.
// Two loopback servers on two ports are two origins: the API (A) redirects, the other (B)
// records whatever reaches it. fetch on its own drops only `authorization` and `cookie` there.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpDispatcher } from "../../templates/runtime/dispatch/http-dispatch.ts";
import { RedirectRefusedError } from "../../templates/runtime/dispatch/redirects.ts";
import type { HttpBinding } from "../../templates/runtime/contract/tool-spec.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback server that answers each path by the handler, recording every request. */
function recordingServer(answer: (url: string, response: import("node:http").ServerResponse) => void) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      answer(request.url ?? "", response);
    });
  });
  return { server, received };
}

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

let originA = "";
let originB = "";
const other = recordingServer((_url, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"stolen":true}'));
const api = recordingServer((url, response) => {
  const [, kind, status] = url.split("/");
  if (kind === "away") response.writeHead(Number(status), { location: `${originB}/collect` }).end();
  else if (kind === "protocol-relative") response.writeHead(307, { location: `//127.0.0.1:${new URL(originB).port}/collect` }).end();
  else if (kind === "here") response.writeHead(Number(status), { location: "/landed" }).end();
  else if (kind === "hop") response.writeHead(302, { location: `/hop/${Number(status) + 1}` }).end();
  else if (kind === "nowhere") response.writeHead(307).end();
  else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ at: url }));
});

beforeAll(async () => {
  originA = await listen(api.server);
  originB = await listen(other.server);
});
afterAll(() => {
  api.server.close();
  other.server.close();
});
beforeEach(() => {
  api.received.length = 0;
  other.received.length = 0;
});

const binding = (path: string, method = "post"): HttpBinding => ({
  method,
  path,
  servers: [],
  parameters: [
    { arg: "session", name: "session", in: "cookie", style: "form", explode: true },
    { arg: "tenant", name: "X-Tenant", in: "header", style: "simple", explode: false },
  ],
  body: { arg: "body", contentType: "application/json", required: false },
});

const dispatcher = (maxRedirects?: number) =>
  createHttpDispatcher({
    baseUrl: originA,
    headers: { "x-static-secret": "static-1", cookie: "app=app-cookie" },
    auth: (request) => {
      request.headers.set("x-api-key", "key-1");
      request.headers.set("authorization", "Bearer token-1");
      request.headers.set("x-signature", "sig-1");
    },
    ...(maxRedirects === undefined ? {} : { maxRedirects }),
  });

const args = { session: "s-1", tenant: "t-1", body: { card: "4111", note: "body-secret" } };

describe("a redirect to another origin is refused, and nothing reaches that origin", () => {
  it.each([301, 302, 303, 307, 308])("%i from A to B: RedirectRefusedError, B receives no request", async (status) => {
    const error = await dispatcher()(binding(`/away/${status}`), args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as RedirectRefusedError).status).toBe(status);
    expect((error as RedirectRefusedError).location).toBe(`${originB}/collect`);
    expect((error as Error).message).toContain("another origin");
    expect(other.received).toEqual([]);
    expect(api.received).toHaveLength(1);
  });

  it("a protocol-relative Location names another origin too", async () => {
    const error = await dispatcher()(binding("/protocol-relative/307"), args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect(other.received).toEqual([]);
  });

  it("with redirects followed on the origin, one that then leaves it is still refused", async () => {
    const error = await dispatcher(0)(binding("/away/307"), args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect(other.received).toEqual([]);
  });

  it("a redirect without a Location is refused with that reason", async () => {
    const error = await dispatcher()(binding("/nowhere"), args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as Error).message).toContain("Location");
  });
});

describe("a redirect on the request's own origin is followed, as fetch would, within a bound", () => {
  it.each([307, 308])("%i keeps the method, the body and the credentials", async (status) => {
    const result = await dispatcher()(binding(`/here/${status}`), args);
    expect(result).toMatchObject({ status: 200, body: { at: "/landed" } });
    const landed = api.received[1] as Received;
    expect(landed).toMatchObject({ method: "POST", url: "/landed", body: JSON.stringify(args.body) });
    expect(landed.headers).toMatchObject({ "x-api-key": "key-1", "x-static-secret": "static-1", cookie: "app=app-cookie; session=s-1" });
  });

  it.each([301, 302, 303])("%i after a POST becomes a GET without the body", async (status) => {
    await dispatcher()(binding(`/here/${status}`), args);
    const landed = api.received[1] as Received;
    expect(landed).toMatchObject({ method: "GET", url: "/landed", body: "" });
    expect(landed.headers["content-type"]).toBeUndefined();
  });

  it("a redirect loop stops after maxRedirects with RedirectRefusedError", async () => {
    const error = await dispatcher(3)(binding("/hop/0", "get"), {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as Error).message).toContain("more than 3 redirects");
    expect(api.received.map((request) => request.url)).toEqual(["/hop/0", "/hop/1", "/hop/2", "/hop/3"]);
  });

  it("maxRedirects must be a whole number from 0 up", () => {
    expect(() => createHttpDispatcher({ maxRedirects: -1 })).toThrow(TypeError);
    expect(() => createHttpDispatcher({ maxRedirects: 1.5 })).toThrow(/maxRedirects/);
  });
});
