// The default implementation of a tool read from an OpenAPI operation: serialises the validated
// arguments into an HTTP request as the operation's parameters describe (path, query, headers,
// cookies, a JSON or form body; OpenAPI's style/explode rules) and sends it with `fetch`. It sets no
// timeout and retries nothing: the caller's resilience layer owns both, through `signal`.
// How values are written is parameter-values.ts and query-string.ts; the checks that refuse a
// request other than the operation's are unsafe-request.ts.
import type { HttpBinding } from "../contract/tool-spec.ts";
import { wireValue } from "./content-parameter.ts";
import { encodeBody } from "./form-body.ts";
import { headerValue, presentValue, simple } from "./parameter-values.ts";
import { QueryBuilder } from "./query-string.ts";
import { DEFAULT_MAX_REDIRECTS, sendFollowingRedirects } from "./redirects.ts";
import { requestPath } from "./request-path.ts";

import type { HttpRequestDraft } from "./request-draft.ts";

export type { HttpRequestDraft };

export interface HttpDispatcherOptions {
  /** Overrides the document's first server URL (`https://api.example.com/v1`). */
  readonly baseUrl?: string;
  /**
   * Sent with every request. These win over the model's arguments: a header parameter of the
   * same name is not sent, and a cookie parameter named in this `cookie` header is not added
   * to it (the others are appended).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Called last, before sending: add credentials, sign the request. It is called only for a URL
   * inside the operation's path: a request the arguments would move elsewhere is refused first.
   */
  readonly auth?: (request: HttpRequestDraft) => void | Promise<void>;
  /**
   * The `fetch` to use; the global one by default. It is called with `redirect: "manual"`: the
   * dispatcher follows redirects itself (redirects.ts), so one that ignores that option can
   * send your credentials wherever a server redirects.
   */
  readonly fetch?: typeof fetch;
  /**
   * Redirects to follow on the request's own origin (scheme, host, port); 5 by default, 0 to
   * follow none. A redirect to another origin is never followed: it throws
   * `RedirectRefusedError`, and nothing (credentials, cookies, body) is sent there.
   */
  readonly maxRedirects?: number;
}

export interface HttpResult {
  readonly status: number;
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body when the response says it is JSON, the text otherwise, null when empty. */
  readonly body: unknown;
}

export type HttpDispatcher = (binding: HttpBinding, args: Readonly<Record<string, unknown>>, signal?: AbortSignal) => Promise<HttpResult>;

export function createHttpDispatcher(options: HttpDispatcherOptions = {}): HttpDispatcher {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) {
    throw new TypeError(`createHttpDispatcher: maxRedirects must be a whole number from 0 up, not ${JSON.stringify(options.maxRedirects)}`);
  }
  return async (binding, args, signal) => {
    const request = buildRequest(binding, args, options);
    if (options.auth) await options.auth(request);
    const response = await sendFollowingRedirects(options.fetch ?? fetch, request, signal, maxRedirects);
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await readBody(response) };
  };
}

/** Builds the request without sending it; exported so tests can read the serialisation. */
export function buildRequest(binding: HttpBinding, args: Readonly<Record<string, unknown>>, options: HttpDispatcherOptions = {}): HttpRequestDraft {
  const base = options.baseUrl ?? binding.servers[0];
  if (base === undefined || !/^https?:\/\//i.test(base)) {
    throw new Error(
      `no absolute base URL for ${binding.method} ${binding.path}: pass baseUrl to createHttpDispatcher (the document's server is ${JSON.stringify(base ?? null)})`,
    );
  }
  const headers = new Headers(options.headers);
  const appCookies = cookieNames(headers.get("cookie"));
  const query = new QueryBuilder(binding);
  const cookies: string[] = [];
  const path = requestPath(binding, args);
  for (const parameter of binding.parameters) {
    if (parameter.in === "path") continue;
    const present = presentValue(args[parameter.arg]);
    if (present === undefined) continue;
    const value = wireValue(parameter, present);
    if (parameter.in === "query") query.add(parameter, value);
    else if (parameter.in === "header") {
      // The application's own header stands; the model's argument does not replace it.
      if (!headers.has(parameter.name)) headers.set(parameter.name, headerValue(value, parameter.explode ?? false));
    } else if (!appCookies.has(parameter.name)) cookies.push(`${parameter.name}=${simple(value, false, encodeURIComponent)}`);
  }
  if (cookies.length > 0) {
    const own = headers.get("cookie");
    headers.set("cookie", own ? `${own}; ${cookies.join("; ")}` : cookies.join("; "));
  }
  headers.set("accept", headers.get("accept") ?? "application/json");
  const url = new URL(base.replace(/\/+$/, "") + path);
  const pairs = query.pairs;
  if (pairs.length > 0) url.search = pairs.join("&");
  let body: string | undefined;
  const bodyValue = binding.body ? args[binding.body.arg] : undefined;
  if (binding.body && bodyValue !== undefined) {
    const encoded = encodeBody(binding, bodyValue);
    body = encoded.text;
    headers.set("content-type", encoded.contentType);
  }
  return { method: binding.method, url, headers, body };
}

/** Names of the cookies in a `Cookie` header. */
function cookieNames(header: string | null): Set<string> {
  const names = new Set<string>();
  for (const pair of header?.split(";") ?? []) {
    const name = pair.split("=", 1)[0]?.trim();
    if (name) names.add(name);
  }
  return names;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  const type = response.headers.get("content-type") ?? "";
  if (/^application\/(?:[\w.-]+\+)?json\b/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
