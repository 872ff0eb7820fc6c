// Which media types carry JSON: `application/json`, any `application/<x>+json` (RFC 6839), and the
// older names vendors still publish for it, `text/json`, `application/x-json` and `text/x-json`
// (Datadog's metric intake takes `text/json` only). The dispatcher writes JSON text for all of
// them, with the media type the document names as Content-Type.
const JSON_MEDIA = /^(?:application\/(?:[\w.-]+\+)?json|application\/x-json|text\/(?:x-)?json)\s*(?:;.*)?$/i;

export function isJsonMedia(type: string): boolean {
  return JSON_MEDIA.test(type);
}

const TEXT_MEDIA = /^text\/[\w.+-]+\s*(?:;.*)?$/i;

/**
 * A text media type (`text/plain`, `text/csv`, `text/x-markdown`, with parameters or not): a body
 * of one of these whose schema is a string is one string argument, sent as it is. The JSON ones
 * among them (`text/json`) are JSON first: callers ask `isJsonMedia` before this.
 */
export function isTextMedia(type: string): boolean {
  return TEXT_MEDIA.test(type);
}
