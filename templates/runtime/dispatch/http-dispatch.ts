// The default implementation of a tool read from an OpenAPI operation: serialises the validated
// arguments into an HTTP request as the operation's parameters describe (path, query, headers,
// cookies, JSON body; OpenAPI's style/explode rules) and sends it with `fetch`. It sets no
// timeout and retries nothing: the caller's resilience layer owns both, through `signal`.
import type { HttpBinding, HttpParameter } from "../contract/tool-spec.ts";

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
  /** Sent with every request; a parameter of the same name wins. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called last, before sending: add credentials, sign the request. */
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
    throw new Error(`no absolute base URL for ${binding.method} ${binding.path}: pass baseUrl to createHttpDispatcher (the document's server is ${JSON.stringify(base ?? null)})`);
  }
  const headers = new Headers(options.headers);
  const query: string[] = [];
  const cookies: string[] = [];
  let path = binding.path;
  for (const parameter of binding.parameters) {
    const value = args[parameter.arg];
    if (value === undefined) {
      if (parameter.in === "path") throw new Error(`path parameter ${parameter.name} has no value`);
      continue;
    }
    if (parameter.in === "path") path = path.replaceAll(`{${parameter.name}}`, pathValue(parameter, value));
    else if (parameter.in === "query") query.push(...queryPairs(parameter, value));
    else if (parameter.in === "header") headers.set(parameter.name, simple(value, parameter.explode ?? false, (text) => text));
    else cookies.push(`${parameter.name}=${simple(value, false, encodeURIComponent)}`);
  }
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  headers.set("accept", headers.get("accept") ?? "application/json");
  const url = new URL(base.replace(/\/+$/, "") + path);
  if (query.length > 0) url.search = query.join("&");
  let body: string | undefined;
  const bodyValue = binding.body ? args[binding.body.arg] : undefined;
  if (binding.body && bodyValue !== undefined) {
    body = JSON.stringify(bodyValue);
    headers.set("content-type", binding.body.contentType);
  }
  return { method: binding.method, url, headers, body };
}

type Encode = (text: string) => string;

function scalar(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `simple` style: `a,b,c`; objects `k,v,k,v`, or `k=v,k=v` exploded. */
function simple(value: unknown, explode: boolean, encode: Encode): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(",");
  if (isRecord(value)) {
    return Object.entries(value).map(([key, item]) => explode ? `${encode(key)}=${encode(scalar(item))}` : `${encode(key)},${encode(scalar(item))}`).join(",");
  }
  return encode(scalar(value));
}

function pathValue(parameter: HttpParameter, value: unknown): string {
  const explode = parameter.explode ?? false;
  const encode: Encode = encodeURIComponent;
  switch (parameter.style ?? "simple") {
    case "label": {
      if (!explode || (!Array.isArray(value) && !isRecord(value))) return `.${simple(value, explode, encode)}`;
      return `.${simple(value, true, encode).replaceAll(",", ".")}`;
    }
    case "matrix": {
      const name = encode(parameter.name);
      if (Array.isArray(value)) {
        return explode ? value.map((item) => `;${name}=${encode(scalar(item))}`).join("") : `;${name}=${simple(value, false, encode)}`;
      }
      if (isRecord(value)) {
        return explode ? Object.entries(value).map(([key, item]) => `;${encode(key)}=${encode(scalar(item))}`).join("") : `;${name}=${simple(value, false, encode)}`;
      }
      return value === null || value === "" ? `;${name}` : `;${name}=${encode(scalar(value))}`;
    }
    default:
      return simple(value, explode, encode);
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
    return [`${name}=${Object.entries(value).flatMap(([key, item]) => [encodeURIComponent(key), encodeURIComponent(scalar(item))]).join(separator)}`];
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
