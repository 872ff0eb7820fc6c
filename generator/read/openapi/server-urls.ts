// The base URLs a binding may dispatch to: each Server Object's `url` with its variables set to
// their defaults. The caller's `baseUrl` overrides them at run time.

export function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  const urls: string[] = [];
  for (const server of servers) {
    if (server === null || typeof server !== "object" || typeof (server as { url?: unknown }).url !== "string") continue;
    const { url, variables } = server as { url: string; variables?: Record<string, { default?: unknown }> };
    urls.push(
      url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const value = variables?.[name]?.default;
        return typeof value === "string" ? value : whole;
      }),
    );
  }
  return urls;
}

/** The opt-in, on an operation or path item, to servers on another origin than the document's. */
export const TRUST_SERVERS = "x-toolguard-trust-servers";

/**
 * The servers an operation dispatches to. Servers named on the operation or its path item win
 * in OpenAPI, but the credentials the application attaches are meant for the document's own
 * servers: another team's spec must not redirect them to another host, or to plain http. So
 * those servers are used only when each shares an origin (scheme, host, port) with a server of
 * the document, or the operation (or path item) opts in with `x-toolguard-trust-servers: true`,
 * or the set's config trusts it (`trustServers`: the user's say, without editing a vendor file).
 * Returns the reason when the operation cannot be dispatched safely.
 */
export function operationServers(
  root: Record<string, unknown>,
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  /** The set's config accepts this operation's servers (`trustServers`). */
  trusted = false,
): string[] | string {
  const documentServers = serverUrls(root.servers);
  const own = operation.servers ?? pathItem.servers;
  if (own === undefined) return documentServers;
  const urls = serverUrls(own);
  if (trusted || operation[TRUST_SERVERS] === true || pathItem[TRUST_SERVERS] === true) return urls;
  const origins = new Set(documentServers.flatMap(originsOf));
  const foreign = urls.filter((url) => {
    const candidates = originsOf(url);
    // A relative URL stays on the document's servers.
    return candidates.length > 0 && !candidates.some((origin) => origins.has(origin));
  });
  if (foreign.length === 0) return urls;
  return `its servers (${foreign.map((url) => JSON.stringify(url)).join(", ")}) are not on an origin of the document's servers, so credentials meant for those could go elsewhere; allow them with the set's config \`trustServers\` (true, or a list naming this operation), or "${TRUST_SERVERS}": true on the operation`;
}

/**
 * The origins a server URL may address: its own; both of http and https for a scheme-relative
 * one (`//host`, which takes the scheme of whoever resolves it); none for a path on the
 * document's own servers. A scheme-relative URL is a host, not a path: `//other.example`
 * names another host and must be judged as one.
 */
function originsOf(url: string): string[] {
  if (url.startsWith("//")) return [originOf(`https:${url}`), originOf(`http:${url}`)];
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return [];
  return [originOf(url)];
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
