// Picks the representation of a request body that a model's JSON arguments can fill: a JSON
// media type first; else a form (`application/x-www-form-urlencoded`), or a multipart form whose
// parts are not files (`multipart/form-data`), which the dispatcher serialises from the same
// JSON object (templates/runtime/dispatch/form-body.ts); else a text media type (`text/plain`,
// `text/csv`, `text/x-markdown`, ...) whose schema is a string, which the model fills as one
// string argument and the dispatcher sends as it is; else a wildcard (`*/*`) whose schema is an
// object or an array, sent as JSON. Anything else (raw bytes, images, file
// uploads, text whose schema is an object) is skipped with its reason: its content would have
// to be guessed.
import type { BodyPartEncoding } from "../../../templates/runtime/contract/tool-spec.ts";
import { pointer as pointerOf, resolvePointer } from "../../json-pointer.ts";
import { Untranslatable } from "./untranslatable.ts";
import { isJsonMedia, isTextMedia } from "./json-media.ts";

export interface RequestMedia {
  /** The media type sent as Content-Type. */
  readonly contentType: string;
  /** JSON Pointer of the media type object in the document. */
  readonly pointer: string;
  readonly media: Readonly<Record<string, unknown>>;
  /** A form's Encoding Objects, by property: what the dispatcher needs of them. */
  readonly encoding?: Readonly<Record<string, BodyPartEncoding>>;
}

const FORM = /^application\/x-www-form-urlencoded\s*(?:;.*)?$/i;
const MULTIPART = /^multipart\/form-data\s*(?:;.*)?$/i;
const FORM_STYLES = ["form", "spaceDelimited", "pipeDelimited", "deepObject"];

export function requestMedia(content: unknown, contentPointer: string, document: unknown): RequestMedia {
  if (content === null || typeof content !== "object" || Array.isArray(content)) {
    throw new Untranslatable(contentPointer, "request body has no `content`");
  }
  const types = Object.keys(content);
  const media = (type: string): Record<string, unknown> => {
    const value = (content as Record<string, unknown>)[type];
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  };
  const json = types.find((type) => type.toLowerCase() === "application/json") ?? types.find((type) => isJsonMedia(type));
  if (json !== undefined) return { contentType: json, pointer: `${contentPointer}${pointerOf(json)}`, media: media(json) };
  const problems: string[] = [];
  for (const [pattern, kind] of [
    [FORM, "form"],
    [MULTIPART, "multipart"],
  ] as const) {
    const type = types.find((candidate) => pattern.test(candidate));
    if (type === undefined) continue;
    const pointer = `${contentPointer}${pointerOf(type)}`;
    const problem = formProblem(document, media(type), pointer, kind);
    if (problem === undefined) return { contentType: type, pointer, media: media(type), ...encodingOf(media(type), pointer, kind) };
    problems.push(`${type}: ${problem}`);
  }
  // `text/plain` first, as the plainest; then the document's order.
  const texts = types.filter((type) => isTextMedia(type)).sort((a, b) => Number(!/^text\/plain\b/i.test(a)) - Number(!/^text\/plain\b/i.test(b)));
  for (const type of texts) {
    const pointer = `${contentPointer}${pointerOf(type)}`;
    const problem = textProblem(document, media(type));
    if (problem === undefined) return { contentType: type, pointer, media: media(type) };
    problems.push(`${type}: ${problem}`);
  }
  // `*/*` (or `application/*`) says the server takes any media type (Kubernetes' create and
  // replace bodies): JSON is one, so a body whose schema is JSON-shaped is sent as JSON, with
  // Content-Type `application/json` (a wildcard is no Content-Type). Raw bytes stay skipped.
  const wildcard = types.find((type) => WILDCARD.test(type) && jsonShaped(document, media(type)));
  if (wildcard !== undefined) return { contentType: "application/json", pointer: `${contentPointer}${pointerOf(wildcard)}`, media: media(wildcard) };
  const offers = `offers ${types.join(", ") || "none"}`;
  throw new Untranslatable(
    contentPointer,
    problems.length > 0
      ? `request body has no JSON media type, and none it offers can be sent from JSON arguments (${problems.join("; ")})`
      : `request body has no JSON media type, form, multipart form or text (${offers})`,
  );
}

const WILDCARD = /^(?:\*\/\*|application\/\*)\s*(?:;.*)?$/i;

/** Whether a wildcard body's schema describes JSON data: an object or an array (through `$ref`s), not a string of bytes. */
function jsonShaped(document: unknown, media: Readonly<Record<string, unknown>>): boolean {
  if (media.schema === undefined || media.schema === null) return false;
  const schema = follow(document, media.schema);
  if (!isObject(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length > 0) return types.every((type) => type === "object" || type === "array" || type === "null") && types.some((type) => type !== "null");
  return ["properties", "items", "allOf", "anyOf", "oneOf", "additionalProperties"].some((keyword) => schema[keyword] !== undefined);
}

/**
 * Why a text body cannot be one string argument: its schema is not a string (a string, through
 * `$ref`s, or no schema: any text). A nullable string is refused too: null is no text to send.
 */
function textProblem(document: unknown, media: Readonly<Record<string, unknown>>): string | undefined {
  if (media.schema === undefined || media.schema === null) return undefined;
  const schema = follow(document, media.schema);
  if (!isObject(schema)) return "its schema is not a schema object";
  const type = Array.isArray(schema.type) && schema.type.length === 1 ? schema.type[0] : schema.type;
  if (type !== "string") return `its schema ${type === undefined ? "declares no type" : `has type ${JSON.stringify(schema.type)}`}, not a string of text`;
  if (schema.nullable === true) return "its schema allows null, and null is no text to send";
  return undefined;
}

/** Why a form body cannot be filled from a JSON object: it is not an object, or a part is a file. */
function formProblem(document: unknown, media: Readonly<Record<string, unknown>>, pointer: string, kind: "form" | "multipart"): string | undefined {
  const schema = follow(document, media.schema);
  if (schema === undefined) return undefined; // any object: the dispatcher writes what it gets
  if (!isObject(schema)) return "its schema is not an object schema";
  const type = schema.type;
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object")))
    return `its schema has type ${JSON.stringify(type)}, not an object of fields`;
  const file = filePart(document, schema, [], new Set());
  if (file !== undefined)
    return `the part ${JSON.stringify(file.join("."))} is a file (${kind === "multipart" ? "a model cannot send a file's bytes as JSON arguments" : "binary content"}; at #${pointer}/schema)`;
  return undefined;
}

/** The path of the first property that is file content (`format: binary`, `type: file`, a non-text `contentMediaType`). */
function filePart(document: unknown, schema: unknown, at: readonly string[], seen: Set<unknown>): readonly string[] | undefined {
  const node = follow(document, schema);
  if (!isObject(node) || seen.has(node) || at.length > 8) return undefined;
  seen.add(node);
  if (node.format === "binary" || node.type === "file") return at;
  if (typeof node.contentMediaType === "string" && !/^(?:text\/|application\/(?:[\w.-]+\+)?json)/i.test(node.contentMediaType)) return at;
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const branch of list) {
      const found = filePart(document, branch, at, seen);
      if (found) return found;
    }
  }
  if (node.items !== undefined) {
    const found = filePart(document, node.items, at, seen);
    if (found) return found;
  }
  if (isObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      const found = filePart(document, child, [...at, name], seen);
      if (found) return found;
    }
  }
  return undefined;
}

/** The Encoding Objects of a form, checked: a style a form does not define cannot be sent. */
function encodingOf(media: Readonly<Record<string, unknown>>, pointer: string, kind: "form" | "multipart"): { encoding?: Record<string, BodyPartEncoding> } {
  if (!isObject(media.encoding)) return {};
  const encoding: Record<string, BodyPartEncoding> = {};
  for (const [name, raw] of Object.entries(media.encoding).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!isObject(raw)) continue;
    const part: { contentType?: string; style?: string; explode?: boolean } = {};
    if (typeof raw.contentType === "string") part.contentType = raw.contentType;
    // style and explode apply to forms only; OpenAPI ignores them in multipart bodies.
    if (kind === "form" && typeof raw.style === "string") {
      if (!FORM_STYLES.includes(raw.style))
        throw new Untranslatable(
          `${pointer}/encoding${pointerOf(name)}/style`,
          `form field ${JSON.stringify(name)} has style "${raw.style}", which a form does not define`,
        );
      part.style = raw.style;
    }
    if (kind === "form" && typeof raw.explode === "boolean") part.explode = raw.explode;
    if (Object.keys(part).length > 0) encoding[name] = part;
  }
  return Object.keys(encoding).length > 0 ? { encoding } : {};
}

function follow(document: unknown, value: unknown): unknown {
  for (let hops = 0; hops < 16 && isObject(value) && typeof value.$ref === "string"; hops++) {
    const ref = value.$ref;
    if (!ref.startsWith("#")) return value;
    value = resolvePointer(document, decodeURIComponent(ref.slice(1)));
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
