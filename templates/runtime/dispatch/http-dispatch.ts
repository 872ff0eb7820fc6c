// The default implementation of a tool read from an OpenAPI operation: serialises the validated
// arguments into an HTTP request as the operation's parameters describe (path, query, headers,
// cookies, JSON body; OpenAPI's style/explode rules) and sends it with `fetch`. It sets no
// timeout and retries nothing: the caller's resilience layer owns both, through `signal`.
import type { HttpBinding, HttpParameter } from "../contract/tool-spec.ts";
import { requestPath, UnsafeRequestError } from "./request-path.ts";
import { isRecord, scalar, simple } from "./styles.ts";

export { UnsafeRequestError } from "./request-path.ts";

/** The request about to be sent, handed to the `auth` hook, which may change it. */
export interface HttpRequestDraft {
  readonly method: string;
  url: URL;
  readonly headers: Headers;
  body: string | undefined;
}

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
  /** The `fetch` to use; the global one by default. */
  readonly fetch?: typeof fetch;
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
  return async (binding, args, signal) => {
    const request = buildRequest(binding, args, options);
    if (options.auth) await options.auth(request);
    const send = options.fetch ?? fetch;
    const response = await send(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(signal ? { signal } : {}),
    });
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
    const value = args[parameter.arg];
    if (value === undefined || parameter.in === "path") continue;
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
    body = JSON.stringify(bodyValue);
    headers.set("content-type", binding.body.contentType);
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

/**
 * A header parameter's value. Fetch refuses CR, LF and characters above U+00FF, and a list's
 * `,` and `=` separate items: so `%`, controls, non-ASCII characters and, inside lists and
 * objects, `,` and `=` are percent-encoded (UTF-8). Plain values travel as they are.
 */
function headerValue(value: unknown, explode: boolean): string {
  if (!Array.isArray(value) && !isRecord(value)) return headerText(scalar(value), false);
  return simple(value, explode, (text) => headerText(text, true));
}

function headerText(text: string, inList: boolean): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const unsafe = code < 0x20 || code > 0x7e || char === "%" || (inList && (char === "," || char === "="));
    out += unsafe && code !== 0x09 ? utf8Escape(char) : char;
  }
  return out;
}

function utf8Escape(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return "%EF%BF%BD"; // a lone surrogate: the replacement character
  }
}

/**
 * The query string, pair by pair. An exploded object's keys become parameter names of their
 * own, so none may be the name of another query parameter or a key sent already: the model
 * would override a value the schema checked (`filter: {limit: 100000}` beside `limit: 5`).
 */
class QueryBuilder {
  readonly pairs: string[] = [];
  readonly #binding: HttpBinding;
  readonly #names = new Set<string>();

  constructor(binding: HttpBinding) {
    this.#binding = binding;
    for (const parameter of binding.parameters) if (parameter.in === "query") this.#names.add(parameter.name);
  }

  add(parameter: HttpParameter, value: unknown): void {
    const style = parameter.style ?? "form";
    const explode = parameter.explode ?? style === "form";
    if (style !== "deepObject" && explode && isRecord(value)) {
      for (const key of Object.keys(value)) {
        if (this.#names.has(key)) {
          throw new UnsafeRequestError(
            this.#binding,
            `the key ${JSON.stringify(key.slice(0, 40))} of query parameter ${parameter.name} would be sent as a query parameter of that name`,
          );
        }
        this.#names.add(key);
      }
    }
    if (style === "deepObject") checkDeepKeys(this.#binding, parameter.name, value);
    this.pairs.push(...queryPairs(parameter, value));
  }
}

/** Keys a server's query parser would read as structure or as an object's prototype. */
const STRUCTURAL_KEY = /[[\]]|^(?:__proto__|constructor|prototype)$/;

function checkDeepKeys(binding: HttpBinding, name: string, value: unknown): void {
  if (Array.isArray(value)) for (const item of value) checkDeepKeys(binding, name, item);
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (STRUCTURAL_KEY.test(key))
      throw new UnsafeRequestError(
        binding,
        `query parameter ${name} has the key ${JSON.stringify(key.slice(0, 40))}, which a server would read as structure or as a prototype`,
      );
    checkDeepKeys(binding, name, value[key]);
  }
}

/** Query pairs, already encoded, per the parameter's style (form by default) and explode. */
function queryPairs(parameter: HttpParameter, value: unknown): string[] {
  const style = parameter.style ?? "form";
  const explode = parameter.explode ?? style === "form";
  const name = encodeURIComponent(parameter.name);
  const pair = (key: string, item: unknown): string => `${encodeURIComponent(key)}=${encodeURIComponent(scalar(item))}`;
  if (style === "deepObject") return deepObject(parameter.name, value);
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => `${name}=${encodeURIComponent(scalar(item))}`);
    const separator = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ",";
    return [`${name}=${value.map((item) => encodeURIComponent(scalar(item))).join(separator)}`];
  }
  if (isRecord(value)) {
    if (explode) return Object.entries(value).map(([key, item]) => pair(key, item));
    const separator = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ",";
    return [
      `${name}=${Object.entries(value)
        .flatMap(([key, item]) => [encodeURIComponent(key), encodeURIComponent(scalar(item))])
        .join(separator)}`,
    ];
  }
  return [`${name}=${encodeURIComponent(scalar(value))}`];
}

/** `deepObject`: `filter[status]=open`; nested objects nest the brackets, arrays repeat the key. */
function deepObject(prefix: string, value: unknown): string[] {
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => deepObject(`${prefix}[${key}]`, item));
  if (Array.isArray(value)) return value.flatMap((item) => deepObject(prefix, item));
  return [`${encodeURIComponent(prefix)}=${encodeURIComponent(scalar(value))}`];
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
