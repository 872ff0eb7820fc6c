// One OpenAPI operation -> one tool description, or the reason it cannot be one. Problems in
// the document itself (conflicting parameters, dangling parameter $refs) throw InputError;
// operations toolguard cannot represent faithfully come back as a skip.
import type { HttpBinding } from "../../../templates/runtime/contract/tool-spec.ts";
import type { ToolDescription } from "../../ir.ts";
import { InputError } from "../../errors.ts";

import { argumentsSchema, BODY_ARGUMENT, type BodyInput } from "./arguments-schema.ts";
import { type ArgumentRenames, type OperationContext, type OperationParameter, operationParameters } from "./operation-parameters.ts";
import { requestMedia } from "./request-body.ts";
import type { SchemaDialect } from "./schema-dialect.ts";
import { ANNOTATION_SHAPE, createSchemaTranslator, type DroppedKeyword } from "./translate-schema.ts";
import { Untranslatable } from "./untranslatable.ts";
import { extractReferences, REFERENCE_KEYWORD } from "../references.ts";
import { pointer as pointerOf, resolvePointer } from "../../json-pointer.ts";

export interface OperationInput {
  readonly document: unknown;
  readonly file: string;
  readonly dialect: SchemaDialect;
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly pathItem: Readonly<Record<string, unknown>>;
  /**
   * Where the path item's `parameters` and the operation are in the document, when the path item
   * is a `$ref` to another (surevoip.co.uk: `/support/ip-address: {$ref: "#/paths/~1ip-address"}`):
   * schemas are read by pointer, so the pointers must name the object the `$ref` reaches. Default:
   * under `/paths/<path>`.
   */
  readonly at?: {
    readonly parameters: string;
    readonly operation: string;
    /**
     * Where the operation's own `parameters` and `requestBody` are, when the operation is a `$ref`
     * to another (read-openapi.ts followOperation): each key may come from the referring object or
     * from the one it reaches. Default: under `operation`.
     */
    readonly operationKeys?: { readonly parameters: string; readonly requestBody: string };
  };
  readonly operation: Readonly<Record<string, unknown>>;
  /** The document's server URLs, already resolved against the path item and operation. */
  readonly servers: readonly string[];
  /** Refuse unknown keywords instead of dropping them with a warning (`--strict`). */
  readonly strict?: boolean;
  /** The config's argument names for this operation's parameters (`argumentNames`). */
  readonly renames?: ArgumentRenames;
}

export type OperationResult = { readonly tool: ToolDescription } | { readonly skip: { readonly pointer: string; readonly reason: string } };

export function operationTool(input: OperationInput): OperationResult {
  const parametersPointer = input.at?.parameters ?? `${pointerOf("paths", input.path)}/parameters`;
  const pointer = input.at?.operation ?? `${pointerOf("paths", input.path)}${pointerOf(input.method)}`;
  const context: OperationContext = {
    file: input.file,
    label: `${input.name} (${input.method.toUpperCase()} ${input.path})`,
    tool: input.name,
    renames: input.renames,
  };
  try {
    const parameters = operationParameters(
      input.document,
      [
        { list: input.pathItem.parameters, pointer: parametersPointer },
        { list: input.operation.parameters, pointer: input.at?.operationKeys?.parameters ?? `${pointer}/parameters` },
      ],
      context,
    );
    checkPathTemplate(
      input.path,
      parameters.filter((parameter) => parameter.in === "path"),
      pointer,
      context,
    );
    const body = requestBody(input, input.at?.operationKeys?.requestBody ?? `${pointer}/requestBody`, context);
    const translator = createSchemaTranslator(input.document, input.dialect, { unknownKeywords: input.strict ? "refuse" : "drop" });
    const args = argumentsSchema(parameters, body, translator, { ...context, document: input.document });
    // Reference fields are marked in the request body (docs/references.md): lifted out here, as a
    // JSON Schema tool file's are. One in a parameter would rename the argument the URL needs.
    const { schema, references } = extractReferences(args.schema, { file: input.file, pointer });
    for (const field of Object.keys(references)) {
      if (!field.startsWith(`/${BODY_ARGUMENT}/`)) {
        throw new InputError(
          { file: input.file, pointer },
          `operation ${context.label}: ${REFERENCE_KEYWORD} on the parameter ${field.slice(1)}: a parameter's value goes into the request as it is`,
          "mark reference fields in the request body's schema only",
        );
      }
    }
    const http: HttpBinding = {
      method: input.method.toUpperCase(),
      path: input.path,
      parameters: args.parameters,
      ...(body
        ? {
            body: {
              arg: BODY_ARGUMENT,
              contentType: body.body.contentType,
              required: body.required,
              ...(body.body.encoding ? { encoding: body.body.encoding } : {}),
            },
          }
        : {}),
      servers: input.servers,
    };
    return {
      tool: {
        name: input.name,
        description: toolDescription(input),
        inputSchema: schema,
        dialect: "2020-12",
        references,
        source: { file: input.file, pointer },
        http,
        ...(translator.dropped.length + args.warnings.length > 0 ? { warnings: [...args.warnings, ...translator.dropped.map(droppedWarning)] } : {}),
      },
    };
  } catch (error) {
    if (error instanceof Untranslatable) return { skip: { pointer: error.pointer, reason: error.message } };
    throw error;
  }
}

function droppedWarning({ pointer, why }: DroppedKeyword): string {
  const keyword = pointer
    .slice(pointer.lastIndexOf("/") + 1)
    .replaceAll("~1", "/")
    .replaceAll("~0", "~");
  if (why === "oas30-id")
    return `\`$id\` at #${pointer} left out: an OpenAPI 3.0 Schema Object has no \`$id\`, so it identifies nothing and every \`$ref\` resolves against the document (in OpenAPI 3.1 it is an identifier)`;
  if (why === "malformed-annotation") {
    const wants = keyword === "examples" ? "an array of values" : `a ${ANNOTATION_SHAPE[keyword] ?? "value of another type"}`;
    return `\`${keyword}\` at #${pointer} left out: JSON Schema wants ${wants} here, and as an annotation it asserts nothing; correct it (--strict refuses it)`;
  }
  return why === "unknown"
    ? `unknown keyword \`${keyword}\` at #${pointer} left out: JSON Schema treats it as an annotation; if it was meant as an assertion, correct its spelling (--strict refuses it)`
    : `\`${keyword}\` beside $ref at #${pointer} left out, as OpenAPI 3.0 ignores it; if it was meant to apply, move it into an allOf with the $ref (--strict refuses it)`;
}

function requestBody(input: OperationInput, at: string, context: OperationContext): BodyInput | undefined {
  let object: unknown = input.operation.requestBody;
  let pointer = at;
  for (let hops = 0; object !== null && typeof object === "object" && typeof (object as { $ref?: unknown }).$ref === "string"; hops++) {
    const ref = (object as { $ref: string }).$ref;
    pointer = ref.startsWith("#") ? decodeURIComponent(ref.slice(1)) : "";
    object = ref.startsWith("#/") && hops < 16 ? resolvePointer(input.document, pointer) : undefined;
    if (object === undefined)
      throw new InputError(
        { file: input.file, pointer: at },
        `operation ${context.label}: request body $ref "${ref}" points at nothing`,
        "point the $ref at a request body under #/components/requestBodies",
      );
  }
  if (object === undefined) return undefined;
  if (object === null || typeof object !== "object")
    throw new InputError(
      { file: input.file, pointer },
      `operation ${context.label}: requestBody must be an object`,
      "describe the request body as a Request Body Object",
    );
  const record = object as Record<string, unknown>;
  return { body: requestMedia(record.content, `${pointer}/content`, input.document), required: record.required === true, description: record.description };
}

// Every `{name}` in the path needs a path parameter, or the dispatcher could not build the URL;
// and every path parameter needs its `{name}`, or its value would go nowhere: the request would
// be sent to the path as written, without it (1Panel's swag output writes gin's `/apps/:key`).
function checkPathTemplate(path: string, declared: readonly OperationParameter[], pointer: string, context: OperationContext): void {
  const names = declared.map((parameter) => parameter.name);
  for (const parameter of declared) {
    if (path.includes(`{${parameter.name}}`)) continue;
    const routerStyle = path.split("/").includes(`:${parameter.name}`);
    throw new InputError(
      { file: context.file, pointer: parameter.pointer },
      `operation ${context.label}: path parameter "${parameter.name}" is not in the path template, so its value would be sent nowhere`,
      routerStyle
        ? `write the path segment ":${parameter.name}" as "{${parameter.name}}": OpenAPI names a path parameter in braces`
        : `name it in the path as "{${parameter.name}}" where its value goes, or remove the parameter`,
    );
  }
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (name !== undefined && !names.includes(name)) {
      throw new InputError(
        { file: context.file, pointer },
        `operation ${context.label}: path template names {${name}} but no path parameter "${name}" is declared`,
        `declare a parameter {name: "${name}", in: "path", required: true}`,
      );
    }
  }
}

function toolDescription(input: OperationInput): string {
  const summary = typeof input.operation.summary === "string" ? input.operation.summary.trim() : "";
  const description = typeof input.operation.description === "string" ? input.operation.description.trim() : "";
  const parts = [summary, description !== summary ? description : ""].filter((part) => part !== "");
  if (parts.length === 0) parts.push(`${input.method.toUpperCase()} ${input.path}`);
  if (input.operation.deprecated === true) parts.push("Deprecated: prefer another operation where one exists.");
  return parts.join("\n\n");
}
