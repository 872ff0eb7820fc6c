// The request the dispatcher builds and sends: its own module, because both the sender
// (http-dispatch.ts) and the redirect rule (redirects.ts) read it, and neither imports the other.

/** The request about to be sent, handed to the `auth` hook, which may change it. */
export interface HttpRequestDraft {
  readonly method: string;
  url: URL;
  readonly headers: Headers;
  body: string | undefined;
}
