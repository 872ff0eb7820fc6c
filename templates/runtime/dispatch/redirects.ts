// Redirects, followed by hand. `fetch` follows them itself and drops only `authorization` and
// `cookie` when the origin changes: an `auth` hook's `x-api-key`, the application's static
// headers and a 307's body would go to whatever host the server names. So the dispatcher asks
// for `redirect: "manual"`, follows a redirect only while it stays on the origin (scheme, host,
// port) the request was built for, and refuses one that leaves it before anything is sent there.
import type { HttpRequestDraft } from "./request-draft.ts";

/** Statuses `fetch` would follow: the ones with a `Location` to go to. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Same-origin redirects followed per request by default; one more is refused as a loop. */
export const DEFAULT_MAX_REDIRECTS = 5;

/**
 * A redirect the dispatcher would not follow: to another origin (the request's credentials and
 * body must not go there), or past `maxRedirects` on its own origin. Nothing was sent to the
 * redirect's target.
 */
export class RedirectRefusedError extends Error {
  /** The redirect's status (301, 302, 303, 307 or 308). */
  readonly status: number;
  /** Where the server said to go, resolved against the request's URL; `null` when unreadable. */
  readonly location: string | null;

  constructor(request: HttpRequestDraft, status: number, location: string | null, why: string) {
    super(`toolguard: did not follow the ${status} redirect of ${request.method.toUpperCase()} ${request.url.origin}${request.url.pathname}: ${why}`);
    this.name = "RedirectRefusedError";
    this.status = status;
    this.location = location;
  }
}

/**
 * Sends the request, following same-origin redirects as `fetch` would (303, and 301/302 after a
 * POST, become a GET without a body; 307/308 keep the method and body), at most `maxRedirects`
 * times. A redirect to another origin throws `RedirectRefusedError` without a request to it.
 */
export async function sendFollowingRedirects(
  send: typeof fetch,
  request: HttpRequestDraft,
  signal: AbortSignal | undefined,
  maxRedirects: number,
): Promise<Response> {
  const origin = request.url.origin;
  let { method, url, body } = request;
  const headers = new Headers(request.headers);
  for (let hop = 0; ; hop++) {
    const response = await send(url, {
      method,
      headers,
      redirect: "manual",
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    });
    if (!REDIRECTS.has(response.status)) return response;
    const current = { ...request, method, url, body };
    // The redirect's own body is not read: release the connection.
    await response.body?.cancel().catch(() => undefined);
    const target = resolveLocation(response.headers.get("location"), url);
    if (target === null) throw new RedirectRefusedError(current, response.status, null, "its Location header is missing or not a URL");
    if (target.origin !== origin) {
      throw new RedirectRefusedError(
        current,
        response.status,
        target.href,
        `it leads to another origin (${printable(target.origin)}), where the request's credentials and body must not go`,
      );
    }
    if (hop >= maxRedirects) throw new RedirectRefusedError(current, response.status, target.href, `more than ${maxRedirects} redirects (maxRedirects)`);
    if (response.status === 303 ? method.toUpperCase() !== "HEAD" : response.status <= 302 && method.toUpperCase() === "POST") {
      method = "GET";
      body = undefined;
      headers.delete("content-type");
    }
    url = target;
  }
}

function resolveLocation(location: string | null, base: URL): URL | null {
  if (location === null) return null;
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** An origin for an error message: the URL parser has encoded anything a terminal would run. */
function printable(origin: string): string {
  return origin.length > 200 ? `${origin.slice(0, 200)}...` : origin;
}
