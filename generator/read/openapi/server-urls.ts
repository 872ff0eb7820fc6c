// The base URLs a binding may dispatch to: each Server Object's `url` with its variables set to
// their defaults. The caller's `baseUrl` overrides them at run time.

export function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  const urls: string[] = [];
  for (const server of servers) {
    if (server === null || typeof server !== "object" || typeof (server as { url?: unknown }).url !== "string") continue;
    const { url, variables } = server as { url: string; variables?: Record<string, { default?: unknown }> };
    urls.push(url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const value = variables?.[name]?.default;
      return typeof value === "string" ? value : whole;
    }));
  }
  return urls;
}
