// The request body as the operation's media type says: JSON text, or a form filled from the
// same JSON object the model sent under `body`. A model always fills `body` as JSON; the wire
// format is the dispatcher's job, as OpenAPI defines it:
// - `application/x-www-form-urlencoded`: each field is a name=value pair, written like a query
//   parameter with the field's Encoding Object `style` (form by default) and `explode` (true
//   for form), so arrays repeat the name and an object's keys become fields, or `name[key]` with
//   deepObject; a field whose encoding `contentType` is JSON is sent as JSON text;
// - `multipart/form-data`: each field is a part; text for strings, numbers and booleans, one
//   part per item for an array of those, `application/json` for objects and arrays of objects,
//   or the `contentType` its Encoding Object names. File parts never reach here (the generator
//   skips those operations);
// - a text media type (`text/plain`, `text/csv`, ...) whose schema is a string: the string the
//   model sent under `body` is the body, as it is (no JSON quotes), with the declared type.
import type { BodyPartEncoding, HttpBinding, HttpParameter } from "../contract/tool-spec.ts";
import { isRecord, scalar } from "./parameter-values.ts";
import { QueryBuilder } from "./query-string.ts";

export interface EncodedBody {
  readonly text: string;
  readonly contentType: string;
}

const FORM = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART = /^multipart\/form-data\b/i;
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;
/** The generator binds a `text/*` body only when its schema is a string (`text/json` is JSON, and takes an object). */
const TEXT = /^text\/(?!(?:x-)?json\b)/i;

export function encodeBody(binding: HttpBinding, value: unknown): EncodedBody {
  const body = binding.body as NonNullable<HttpBinding["body"]>;
  if (FORM.test(body.contentType) && isRecord(value)) return { text: formText(binding, value, body.encoding ?? {}), contentType: body.contentType };
  if (MULTIPART.test(body.contentType) && isRecord(value)) return multipart(value, body.encoding ?? {}, body.contentType);
  if (TEXT.test(body.contentType) && typeof value === "string") return { text: value, contentType: body.contentType };
  return { text: JSON.stringify(value), contentType: body.contentType };
}

/** `a=1&tags=x&tags=y`: the fields as query pairs, with the query string's checks on exploded keys. */
function formText(binding: HttpBinding, fields: Readonly<Record<string, unknown>>, encoding: Readonly<Record<string, BodyPartEncoding>>): string {
  const names = Object.keys(fields).filter((name) => fields[name] !== undefined);
  const parameter = (name: string): HttpParameter => {
    const style = encoding[name]?.style ?? "form";
    return { arg: name, name, in: "query", style, explode: encoding[name]?.explode ?? style === "form" };
  };
  // The fields are this builder's parameters: an exploded object's key that names another field is refused.
  const builder = new QueryBuilder({ ...binding, parameters: names.map(parameter) });
  for (const name of names) {
    const contentType = encoding[name]?.contentType;
    builder.add(parameter(name), contentType !== undefined && JSON_TYPE.test(contentType) ? JSON.stringify(fields[name]) : fields[name]);
  }
  return builder.pairs.join("&");
}

function multipart(fields: Readonly<Record<string, unknown>>, encoding: Readonly<Record<string, BodyPartEncoding>>, declared: string): EncodedBody {
  const boundary = `toolguard-${randomHex(24)}`;
  const parts: string[] = [];
  const part = (name: string, text: string, type: string | undefined): void => {
    const header = `Content-Disposition: form-data; name="${escapeName(name)}"${type === undefined ? "" : `\r\nContent-Type: ${type}`}`;
    parts.push(`--${boundary}\r\n${header}\r\n\r\n${text}\r\n`);
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const type = encoding[name]?.contentType;
    if (type !== undefined && JSON_TYPE.test(type)) part(name, JSON.stringify(value), type);
    else if (type !== undefined) part(name, scalar(value), type);
    else if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item)))
      for (const item of value) part(name, scalar(item), undefined);
    else if (isRecord(value) || Array.isArray(value)) part(name, JSON.stringify(value), "application/json");
    else part(name, scalar(value), undefined);
  }
  const media = declared.split(";", 1)[0]?.trim() ?? "multipart/form-data";
  return { text: `${parts.join("")}--${boundary}--\r\n`, contentType: `${media}; boundary=${boundary}` };
}

/** A part's name inside its quotes, as browsers write it (WHATWG HTML): `"`, CR and LF percent-encoded. */
function escapeName(name: string): string {
  return name.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function randomHex(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length / 2));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
