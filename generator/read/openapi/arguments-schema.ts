// Merges an operation's parameters and JSON request body into the one argument object a model
// fills. The rule: every parameter is a top-level property named after the parameter (or its
// `x-toolguard-arg`), and the body is the property `body`. Parameter names are unique per
// operation (checked when they are read), so the only possible clash is a parameter that is
// itself called `body` beside a request body, which is an error with a fix.
import { InputError } from "../../errors.ts";

import type { HttpParameter } from "../../../templates/runtime/contract/tool-spec.ts";
import type { OperationContext, OperationParameter } from "./operation-parameters.ts";
import type { JsonBody } from "./request-body.ts";
import type { SchemaTranslator } from "./translate-schema.ts";
import { Untranslatable } from "./untranslatable.ts";
import { resolvePointer } from "../../json-pointer.ts";

/** The argument property that carries the JSON request body. */
export const BODY_ARGUMENT = "body";

export const SCHEMA_DIALECT_URI = "https://json-schema.org/draft/2020-12/schema";

export interface ArgumentsSchema {
  readonly schema: Record<string, unknown>;
  readonly parameters: readonly HttpParameter[];
}

export interface BodyInput {
  readonly body: JsonBody;
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
    const schema = media.schema === undefined ? {} : translator.translate(`${pointer}/schema`);
    properties[BODY_ARGUMENT] = annotate(schema, body.description, mediaExamples(context.document, media));
    if (body.required) required.push(BODY_ARGUMENT);
  }
  const schema: Record<string, unknown> = { $schema: SCHEMA_DIALECT_URI, type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (Object.keys(translator.defs).length > 0) schema.$defs = translator.defs;
  return {
    schema,
    parameters: parameters.map(({ arg, name, in: location, style, explode, required: isRequired }) => ({
      arg,
      name,
      in: location,
      style,
      explode,
      required: isRequired,
    })),
  };
}

function parameterSchema(parameter: OperationParameter, translator: SchemaTranslator, document: unknown): unknown {
  const { object, pointer } = parameter;
  if (object.content !== undefined) {
    throw new Untranslatable(
      `${pointer}/content`,
      `parameter "${parameter.name}" is described by \`content\` (a serialised media type), which toolguard does not dispatch`,
    );
  }
  if (object.schema === undefined) throw new Untranslatable(pointer, `parameter "${parameter.name}" has no schema`);
  return annotate(translator.translate(`${pointer}/schema`), object.description, mediaExamples(document, object));
}

/** Example values of a parameter or media type object (`example`, or `examples[*].value`). */
function mediaExamples(document: unknown, object: Readonly<Record<string, unknown>>): unknown[] {
  if (object.example !== undefined) return [object.example];
  const examples = object.examples;
  if (examples === null || typeof examples !== "object") return [];
  return Object.values(examples)
    .map((example) => followRef(document, example))
    .filter((example): example is { value: unknown } => example !== null && typeof example === "object" && "value" in example)
    .map((example) => example.value);
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
