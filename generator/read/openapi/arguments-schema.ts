// Merges an operation's parameters and JSON request body into the one argument object a model
// fills. The rule: every parameter is a top-level property named after the parameter (or its
// `x-toolguard-arg`), and the body is the property `body`. Parameter names are unique per
// operation (checked when they are read), so the only possible clash is a parameter that is
// itself called `body` beside a request body, which is an error with a fix.
import { InputError } from "../../errors.ts";

import type { HttpParameter } from "../../../templates/runtime/contract/tool-spec.ts";
import type { OperationContext, OperationParameter } from "./operation-parameters.ts";
import type { RequestMedia } from "./request-body.ts";
import type { SchemaTranslator } from "./translate-schema.ts";
import { Untranslatable } from "./untranslatable.ts";
import { resolvePointer } from "../../json-pointer.ts";
import { isJsonMedia, isTextMedia } from "./json-media.ts";

/** The argument property that carries the JSON request body. */
export const BODY_ARGUMENT = "body";

export const SCHEMA_DIALECT_URI = "https://json-schema.org/draft/2020-12/schema";

export interface ArgumentsSchema {
  readonly schema: Record<string, unknown>;
  /** What was read other than as written, for the generation summary. */
  readonly warnings: readonly string[];
  readonly parameters: readonly HttpParameter[];
}

export interface BodyInput {
  readonly body: RequestMedia;
  readonly required: boolean;
  readonly description: unknown;
}

export function argumentsSchema(
  parameters: readonly OperationParameter[],
  body: BodyInput | undefined,
  translator: SchemaTranslator,
  context: OperationContext & { readonly document: unknown },
): ArgumentsSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const warnings: string[] = [];
  for (const parameter of parameters) {
    if (body && parameter.arg === BODY_ARGUMENT) {
      throw new InputError(
        { file: context.file, pointer: parameter.pointer },
        `operation ${context.label}: ${parameter.in} parameter "${parameter.name}" would take the argument "body", which carries the request body`,
        `set "x-toolguard-arg" on the parameter to another argument name`,
      );
    }
    properties[parameter.arg] = parameterSchema(parameter, translator, context.document);
    if (parameter.required) required.push(parameter.arg);
  }
  if (body) {
    const { media, pointer } = body.body;
    // A form without a schema takes any object of fields; a text body, any string; a JSON body
    // without one, any value.
    // `schema: null` is not a Schema Object; it is read as no schema, as OpenAPI readers do, and said.
    if (media.schema === null)
      warnings.push(
        `\`schema: null\` at #${pointer}/schema read as no schema (the body may be any value): null is not a Schema Object; remove it or give a schema`,
      );
    const schema =
      media.schema === undefined || media.schema === null
        ? isJsonMedia(body.body.contentType)
          ? {}
          : isTextMedia(body.body.contentType)
            ? { type: "string" }
            : { type: "object" }
        : translator.translate(`${pointer}/schema`);
    properties[BODY_ARGUMENT] = annotate(schema, body.description, mediaExamples(context.document, media));
    if (body.required) required.push(BODY_ARGUMENT);
  }
  const schema: Record<string, unknown> = { $schema: SCHEMA_DIALECT_URI, type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (Object.keys(translator.defs).length > 0) schema.$defs = translator.defs;
  return {
    schema,
    warnings,
    parameters: parameters.map((parameter) => {
      const { arg, name, in: location, style, explode, required: isRequired } = parameter;
      const contentType = parameterContent(parameter)?.contentType;
      return { arg, name, in: location, style, explode, required: isRequired, ...(contentType ? { contentType } : {}) };
    }),
  };
}

function parameterSchema(parameter: OperationParameter, translator: SchemaTranslator, document: unknown): unknown {
  const { object, pointer } = parameter;
  const content = parameterContent(parameter, document);
  if (content !== undefined) {
    // The value is the media type's schema; the dispatcher writes it as that media type's text.
    const schema = content.media.schema === undefined || content.media.schema === null ? {} : translator.translate(`${content.pointer}/schema`);
    return annotate(schema, object.description, [...mediaExamples(document, object), ...mediaExamples(document, content.media)].slice(0, 1));
  }
  if (object.schema === undefined) throw new Untranslatable(pointer, `parameter "${parameter.name}" has no schema`);
  return annotate(translator.translate(`${pointer}/schema`), object.description, mediaExamples(document, object));
}

/**
 * A parameter described by `content` (one media type, as OpenAPI requires) instead of `schema`.
 * A JSON media type (a JSON-serialised `filter`) is sent as the JSON text of the value
 * (`contentType` set, for the dispatcher). Any other media type (`text/plain`, `*\/*`) whose
 * schema is a string is sent as that text, like a parameter with that schema (`contentType`
 * not set). Anything else, and JSON in a path segment, is skipped with the reason.
 */
export function parameterContent(
  parameter: OperationParameter,
  document?: unknown,
): { readonly contentType?: string; readonly pointer: string; readonly media: Readonly<Record<string, unknown>> } | undefined {
  const { object, pointer } = parameter;
  if (object.content === undefined) return undefined;
  const content = object.content;
  const types = content !== null && typeof content === "object" && !Array.isArray(content) ? Object.keys(content) : [];
  if (types.length !== 1)
    throw new Untranslatable(`${pointer}/content`, `parameter "${parameter.name}": \`content\` must name exactly one media type (it names ${types.length})`);
  const type = types[0] as string;
  const raw = (content as Record<string, unknown>)[type];
  const media = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const at = `${pointer}/content/${type.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  if (isJsonMedia(type)) {
    if (parameter.in === "path")
      throw new Untranslatable(
        `${pointer}/content`,
        `path parameter "${parameter.name}" is described by \`content\` of ${type}: JSON text is not a path segment toolguard writes`,
      );
    return { contentType: type, pointer: at, media };
  }
  if (document !== undefined && schemaType(document, media.schema) !== "string")
    throw new Untranslatable(
      `${pointer}/content`,
      `parameter "${parameter.name}" is described by \`content\` of media type ${type} with a schema that is not a string; toolguard writes parameter content as JSON, or as text when the schema is a string`,
    );
  return { pointer: at, media };
}

function schemaType(document: unknown, schema: unknown): unknown {
  let node = schema;
  for (let hops = 0; hops < 16 && node !== null && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string"; hops++) {
    const ref = (node as { $ref: string }).$ref;
    node = ref.startsWith("#/") ? resolvePointer(document, decodeURIComponent(ref.slice(1))) : undefined;
  }
  return node !== null && typeof node === "object" ? (node as { type?: unknown }).type : undefined;
}

/**
 * Example values of a parameter or media type object (`example`, or `examples[*].value`, or
 * 3.2's `examples[*].dataValue`: the value as data, beside its `serializedValue` on the wire).
 */
function mediaExamples(document: unknown, object: Readonly<Record<string, unknown>>): unknown[] {
  if (object.example !== undefined) return [object.example];
  const examples = object.examples;
  if (examples === null || typeof examples !== "object") return [];
  return Object.values(examples)
    .map((example) => followRef(document, example))
    .filter(
      (example): example is { value?: unknown; dataValue?: unknown } =>
        example !== null && typeof example === "object" && ("dataValue" in example || "value" in example),
    )
    .map((example) => ("dataValue" in example ? example.dataValue : example.value));
}

function followRef(document: unknown, value: unknown): unknown {
  for (let hops = 0; hops < 16 && value !== null && typeof value === "object" && typeof (value as { $ref?: unknown }).$ref === "string"; hops++) {
    const ref = (value as { $ref: string }).$ref;
    if (!ref.startsWith("#/")) return undefined;
    value = resolvePointer(document, decodeURIComponent(ref.slice(1)));
  }
  return value;
}

// A parameter's description and examples sit beside its schema in OpenAPI; the model only sees
// the schema, so they move into it (the schema's own win).
function annotate(schema: unknown, description: unknown, examples: readonly unknown[]): unknown {
  if (schema === null || typeof schema !== "object") return schema;
  const out = { ...(schema as Record<string, unknown>) };
  if (typeof description === "string" && description !== "" && out.description === undefined) out.description = description;
  if (examples.length > 0 && out.examples === undefined) out.examples = [...examples];
  return out;
}
