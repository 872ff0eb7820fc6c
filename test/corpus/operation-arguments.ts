// An OpenAPI operation's argument object as its vendor wrote it: one property per parameter the
// tool binds (its schema where the document writes it) and `body` (the request body's schema for
// the tool's media type), required as the document says. The judge validates instances against
// this (docRef pointers into the document as written), and the synthesizer builds instances of
// each part. Swagger 2.0 parameters are their own schemas (`type`, `enum`, ... on the parameter);
// its `in: body` parameter carries the body, `in: formData` parameters are the body's fields.
import type { ToolDescription } from "../../generator/ir.ts";
import { docRef } from "./as-written.ts";

type Node = Record<string, unknown>;

/** One argument: where its schema is in the document (or the schema itself, for Swagger's formData). */
export interface ArgumentPart {
  readonly arg: string;
  readonly required: boolean;
  /** JSON Pointer of its schema in the document. */
  readonly pointer?: string;
  /** A schema built here (Swagger 2.0 parameters); its `$ref`s point into the document. */
  readonly schema?: Node;
}

export interface OperationArguments {
  readonly parts: readonly ArgumentPart[];
  /** The argument object's schema for the judge. */
  readonly schema: object;
  /** The vendor's own examples of whole argument objects (request-body and parameter examples). */
  readonly examples: readonly { readonly where: string; readonly value: unknown }[];
  /** The arguments that go into the URL path (see `unsendablePath`). */
  readonly pathArgs: readonly string[];
}

/**
 * The path arguments of a call that no request can carry: `null`, `""`, `[]` or `{}`, and a
 * string that is a dot segment (`.`, `..`, or a percent-encoded spelling of one, decoded up to
 * three times). The first expand to an empty path segment, which addresses another resource
 * (`/boards/` is not board `null`); a URL parser resolves a dot segment away (RFC 3986 5.2.4:
 * `/clusters/./deployments` is `/clusters/deployments`). The guard refuses both by design
 * (docs/openapi.md, the dispatcher's path parameters), even where the vendor's schema allows
 * them (`nullable: true`, a pattern like `^[a-zA-Z0-9._-]+$`). The judge counts these calls
 * apart, as valid as written but not sendable.
 */
export function unsendablePath(call: unknown, pathArgs: readonly string[]): string[] {
  if (call === null || typeof call !== "object") return [];
  return pathArgs.filter((arg) => {
    if (!Object.hasOwn(call, arg)) return false;
    const value = (call as Node)[arg];
    if (value === null || value === "") return true;
    if (typeof value === "string") return dotSegment(value);
    if (Array.isArray(value)) return value.length === 0;
    return typeof value === "object" && Object.keys(value).length === 0;
  });
}

function dotSegment(text: string): boolean {
  let decoded = text;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded === "." || decoded === "..";
}

const token = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

export function at(document: unknown, pointer: string): unknown {
  let node = document;
  for (const part of pointer.split("/").slice(1)) node = (node as Node | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  return node;
}

/** Follows local `$ref`s from a pointer: the pointer the chain ends at. */
function follow(document: unknown, pointer: string): string {
  for (let hops = 0; hops < 32; hops++) {
    const ref = (at(document, pointer) as Node | undefined)?.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return pointer;
    pointer = decodeURIComponent(ref.slice(1));
  }
  return pointer;
}

/** Keys of a Swagger 2.0 parameter that are not schema keywords. */
const SWAGGER_PARAMETER_KEYS = new Set(["name", "in", "required", "description", "collectionFormat", "allowEmptyValue"]);

function swaggerParameterSchema(parameter: Node): Node {
  const schema: Node = {};
  for (const [key, value] of Object.entries(parameter)) if (!SWAGGER_PARAMETER_KEYS.has(key) && !key.startsWith("x-")) schema[key] = value;
  if (schema.type === "file") return {};
  return schema;
}

/**
 * The argument parts of the tool's operation, or the reason the judge cannot map it (then the
 * operation is counted as unjudged, never as passing).
 */
export function operationArguments(document: Node, tool: ToolDescription): OperationArguments | string {
  const http = tool.http;
  if (!http) return "the tool has no HTTP binding";
  const operationPointer = tool.source.pointer;
  const operation = at(document, operationPointer) as Node | undefined;
  if (!operation) return `no operation at ${operationPointer}`;
  const pathItemPointer = operationPointer.split("/").slice(0, -1).join("/");
  // Parameters as listed: the operation's own win over the path item's (same name and location).
  const listed = new Map<string, string>();
  for (const base of [pathItemPointer, operationPointer]) {
    const parameters = (at(document, base) as Node | undefined)?.parameters;
    if (!Array.isArray(parameters)) continue;
    for (const index of parameters.keys()) {
      const pointer = follow(document, `${base}/parameters/${index}`);
      const parameter = at(document, pointer) as Node | undefined;
      if (parameter) listed.set(`${String(parameter.in)}:${String(parameter.name)}`, pointer);
    }
  }
  const parts: ArgumentPart[] = [];
  const examples: { where: string; value: unknown }[] = [];
  const parameterExamples: [string, unknown][] = [];
  for (const bound of http.parameters) {
    const pointer = listed.get(`${bound.in}:${bound.name}`);
    if (!pointer) return `parameter ${bound.in} ${bound.name} is not in the document's list`;
    const parameter = at(document, pointer) as Node;
    const required = parameter.required === true || bound.in === "path";
    if (parameter.schema !== undefined) parts.push({ arg: bound.arg, required, pointer: `${pointer}/schema` });
    else if (parameter.content && typeof parameter.content === "object") {
      const media = Object.keys(parameter.content)[0]!;
      parts.push({ arg: bound.arg, required, pointer: `${pointer}/content/${token(media)}/schema` });
    } else parts.push({ arg: bound.arg, required, schema: swaggerParameterSchema(parameter) });
    if (parameter.example !== undefined) parameterExamples.push([bound.arg, parameter.example]);
  }
  if (http.body) {
    const bodyPointer = follow(document, `${operationPointer}/requestBody`);
    const requestBody = at(document, bodyPointer) as Node | undefined;
    if (requestBody) {
      // A body offered only as `*/*` is sent as application/json (docs/openapi.md): its schema is the wildcard's.
      const content = (requestBody.content ?? {}) as Node;
      const offered = Object.hasOwn(content, http.body.contentType)
        ? http.body.contentType
        : (Object.keys(content).find((type) => /^(?:\*\/\*|application\/\*)\s*(?:;.*)?$/i.test(type)) ?? http.body.contentType);
      const mediaPointer = `${bodyPointer}/content/${token(offered)}`;
      const media = at(document, mediaPointer) as Node | undefined;
      if (!media) return `no media type ${http.body.contentType} in ${bodyPointer}`;
      const required = requestBody.required === true;
      // A text body with no schema is any text (its media type says so, and the tool's `body` is
      // a string); with one, its schema as written, as for every other media type.
      if (media.schema === undefined && /^text\//i.test(http.body.contentType)) parts.push({ arg: http.body.arg, required, schema: { type: "string" } });
      else parts.push({ arg: http.body.arg, required, pointer: `${mediaPointer}/schema` });
      for (const value of mediaExamples(document, media, mediaPointer)) examples.push(value);
    } else {
      // Swagger 2.0: the `in: body` parameter, or the formData parameters as one object.
      const body = [...listed.values()].find((pointer) => (at(document, pointer) as Node).in === "body");
      const form = [...listed.values()].filter((pointer) => (at(document, pointer) as Node).in === "formData");
      if (body) parts.push({ arg: http.body.arg, required: (at(document, body) as Node).required === true, pointer: `${body}/schema` });
      else if (form.length > 0) {
        const fields = form.map((pointer) => at(document, pointer) as Node);
        parts.push({
          arg: http.body.arg,
          required: fields.some((field) => field.required === true),
          schema: {
            type: "object",
            properties: Object.fromEntries(fields.map((field) => [String(field.name), swaggerParameterSchema(field)])),
            required: fields.filter((field) => field.required === true).map((field) => String(field.name)),
          },
        });
      } else return `the tool has a body the document does not describe at ${operationPointer}`;
    }
  }
  // The schema as written: a path argument that no request can carry (null, empty) is not
  // refused here but counted apart by the judge (unsendablePath).
  const properties = Object.fromEntries(parts.map((part) => [part.arg, part.pointer !== undefined ? docRef(part.pointer) : rebase(part.schema!)]));
  const pathArgs = http.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.arg);
  const required = parts.filter((part) => part.required).map((part) => part.arg);
  const schema = { type: "object", properties, required, additionalProperties: false };
  // A body example becomes a whole call with the parameters' own examples; parts the vendor
  // gave no example for are filled in by the caller (`complete`).
  const withParameters = Object.fromEntries(parameterExamples);
  const bodyArg = http.body?.arg;
  const calls = examples.map(({ where, value }) => ({ where, value: bodyArg ? { ...withParameters, [bodyArg]: value } : withParameters }));
  if (calls.length === 0 && parameterExamples.length > 0) calls.push({ where: `${operationPointer}/parameters (examples)`, value: withParameters });
  return { parts, schema, examples: calls, pathArgs };
}

/** A schema built here whose `$ref`s are the document's (`#/...`), made to point at `doc#/...`. */
function rebase(node: unknown): Node {
  if (node === null || typeof node !== "object") return node as Node;
  if (Array.isArray(node)) return node.map(rebase) as unknown as Node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#") ? `doc${value}` : rebase(value);
  return out;
}

/** A media type's `example` and `examples` (Example objects, through `$ref`s), with where each is. */
function mediaExamples(document: unknown, media: Node, mediaPointer: string): { where: string; value: unknown }[] {
  if (media.example !== undefined) return [{ where: `${mediaPointer}/example`, value: media.example }];
  const out: { where: string; value: unknown }[] = [];
  for (const name of Object.keys((media.examples as Node | undefined) ?? {})) {
    const pointer = follow(document, `${mediaPointer}/examples/${token(name)}`);
    const example = at(document, pointer) as Node | undefined;
    if (example && example.value !== undefined) out.push({ where: pointer, value: example.value });
  }
  return out;
}
