// OpenAI's description documents each operation's requests as curl commands under
// `x-oaiMeta.examples[].request.curl`. This reads one into the call a model would make: path and
// query parameters from the URL, the JSON body from `-d '...'`, form fields from `-F`.

export interface CurlExample {
  readonly url: URL;
  /** The JSON body, when the example sends one. */
  readonly body?: unknown;
  /** True when the example sends multipart form fields (`-F`), not JSON. */
  readonly form: boolean;
}

export function parseCurl(command: string): CurlExample {
  const url = /(https?:\/\/[^\s"'\\]+)/.exec(command)?.[1];
  if (!url) throw new Error(`no URL in ${command.slice(0, 80)}`);
  const data = command.indexOf("-d '");
  const text = data === -1 ? "" : command.slice(data + 4, command.lastIndexOf("'")).trim();
  const body = text === "" ? undefined : JSON.parse(text); // `-d ''`: an empty request
  return { url: new URL(url), body, form: /\s-F\s/.test(command) };
}

/** Every curl request example of an operation, as the description writes them. */
export function curlExamples(operation: unknown): string[] {
  const examples = (operation as { "x-oaiMeta"?: { examples?: unknown } })["x-oaiMeta"]?.examples;
  const list = Array.isArray(examples) ? examples : examples === undefined ? [] : [examples];
  return list.flatMap((example) => {
    const curl = (example as { request?: { curl?: unknown } })?.request?.curl;
    return typeof curl === "string" ? [curl] : [];
  });
}

/**
 * The arguments toolguard's tool takes for a request to `url`: path parameters matched against
 * the template (`/threads/{thread_id}/runs`), query parameters, and the body under `body`.
 */
export function argumentsFor(template: string, base: string, example: CurlExample): Record<string, unknown> | undefined {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    })}$`,
  );
  const path = decodeURIComponent(example.url.pathname).slice(new URL(base).pathname.replace(/\/$/, "").length);
  const match = pattern.exec(path);
  if (!match) return undefined;
  const args: Record<string, unknown> = {};
  for (const [index, name] of names.entries()) args[name] = match[index + 1];
  for (const [name, value] of example.url.searchParams) args[name] = value;
  if (example.body !== undefined) args.body = example.body;
  return args;
}
