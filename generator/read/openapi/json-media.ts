// Which media types carry JSON: `application/json`, any `application/<x>+json` (RFC 6839), and the
// older names vendors still publish for it, `text/json`, `application/x-json` and `text/x-json`
// (Datadog's metric intake takes `text/json` only). The dispatcher writes JSON text for all of
// them, with the media type the document names as Content-Type.
const JSON_MEDIA = /^(?:application\/(?:[\w.-]+\+)?json|application\/x-json|text\/(?:x-)?json)\s*(?:;.*)?$/i;

export function isJsonMedia(type: string): boolean {
  return JSON_MEDIA.test(type);
}
