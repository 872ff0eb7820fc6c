// Reads an OpenAPI 3.0.x, 3.1.x or 3.2.x document (already loaded and bundled by loadDocument): every
// operation becomes a tool, or a skip with its reason. See docs/openapi.md for the rules.
import type { ReadResult, SkippedTool, ToolDescription } from "../../ir.ts";
import { InputError, InputErrors } from "../../errors.ts";
import type { LoadedDocument } from "../../load/load-document.ts";

import { operationTool } from "./operation-tool.ts";
import { dialectOf, type SchemaDialect } from "./schema-dialect.ts";
import { operationServers } from "./server-urls.ts";
import { skipReason } from "./skip-reason.ts";
import { toolName } from "./tool-name.ts";
import { Untranslatable } from "./untranslatable.ts";
import { pointer as pointerOf } from "../../json-pointer.ts";
import { followOperation, followPathItem } from "./follow-refs.ts";
import { type NamedOperation, qualifiedNames } from "./operation-names.ts";
import type { ArgumentNames } from "../../config.ts";
import type { ArgumentRenames } from "./operation-parameters.ts";

export interface ReadOpenApiOptions {
  /** Fail on the first operation that would be skipped, instead of listing it in `skipped`. */
  readonly strict?: boolean;
  /** Accept operations' own servers on other origins: for all operations, or those named (operationId or tool name). */
  readonly trustServers?: true | readonly string[];
  /** Filled with the `trustServers` names that some operation answers to (for the summary's unknown-name note). */
  readonly trustNamed?: Set<string>;
  /** Argument names for parameters, by operation (operationId, tool name or "*"), then "<in>.<name>" (config `argumentNames`). */
  readonly argumentNames?: ArgumentNames;
  /** Filled with the `argumentNames` entries some parameter answers to, as "<operation> <in>.<name>". */
  readonly renamesUsed?: Set<string>;
}

/** The HTTP methods OpenAPI allows in a path item, in the order tools are read. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** An HTTP method is a token (RFC 9110): what 3.2's `additionalOperations` keys must be to be sent. */
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether a parsed document is meant as OpenAPI (it has a top-level `openapi` field). */
export function isOpenApiDocument(document: unknown): boolean {
  return document !== null && typeof document === "object" && "openapi" in document;
}

export function readOpenApi(loaded: LoadedDocument, options: ReadOpenApiOptions = {}): ReadResult {
  const { file, document } = loaded;
  const root = checkDocument(file, document);
  const dialect = schemaDialect(file, root);
  // 3.2 adds the `query` method and `additionalOperations` to the path item; in 3.0 and 3.1 those
  // keys are not operations.
  const version32 = (root.openapi as string).startsWith("3.2");
  const tools: ToolDescription[] = [];
  const skipped: SkippedTool[] = [];
  const taken = new Map<string, { pointer: string; operationId: unknown }>(); // tool name -> the operation that has it

  // One operation that cannot become a tool is skipped with its reason (the document's own
  // mistakes in it included: conflicting parameters, a dangling parameter $ref): it never
  // refuses the rest of the document. With --strict the run fails on it instead.
  const refusals: InputError[] = [];
  const skip = (name: string, pointer: string, error: unknown): void => {
    const { reason, refusal } = skipReason(file, name, pointer, error);
    skipped.push({ name, source: { file, pointer }, reason });
    refusals.push(refusal);
  };
  const paths = (root.paths ?? {}) as Record<string, unknown>;
  // Names several operations would share are qualified first (operation-names.ts), with a warning each.
  const qualified = qualifiedNames(namingInputs(file, document, paths, version32));
  for (const [path, rawItem] of Object.entries(paths)) {
    // `x-` keys are Specification Extensions, allowed in the Paths Object; they hold no operations.
    if (path.startsWith("x-")) continue;
    const itemPointer = pointerOf("paths", path);
    let pathItem: Record<string, unknown>;
    let ownerOf: (key: string) => string;
    try {
      ({ item: pathItem, ownerOf } = followPathItem(file, document, rawItem, itemPointer));
    } catch (error) {
      skip(path, itemPointer, error);
      continue;
    }
    for (const { method, key, operation } of operationsOf(pathItem, version32)) {
      const pointer = `${itemPointer}${pointerOf(...key)}`;
      const written = `${ownerOf(key[0] as string)}${pointerOf(...key)}`;
      let followed: { item: unknown; ownerOf: (key: string) => string };
      try {
        followed = followOperation(file, document, operation, written);
      } catch (error) {
        skip(qualified.get(pointer)?.name ?? toolName((operation as { operationId?: unknown }).operationId, method, path), pointer, error);
        continue;
      }
      const { item: resolved, ownerOf: operationOwner } = followed;
      const record = resolved !== null && typeof resolved === "object" && !Array.isArray(resolved) ? (resolved as Record<string, unknown>) : {};
      const renamed = qualified.get(pointer);
      const name = renamed?.name ?? toolName(record.operationId, method, path);
      try {
        if (record !== resolved)
          throw new InputError({ file, pointer }, `${method.toUpperCase()} ${path} is not an Operation Object`, "describe the operation as an object");
        if (key[0] === "additionalOperations") checkAdditionalMethod(file, pointer, method, path);
        const clash = taken.get(name);
        if (clash !== undefined) {
          // One operationId on two routes breaks OpenAPI's rule that it is unique in a document;
          // gRPC-gateway writes one per extra binding of an RPC (Temporal: 121 of 226 routes).
          const repeated =
            typeof record.operationId === "string" && record.operationId === clash.operationId
              ? ` (both have operationId ${JSON.stringify(record.operationId)}, which OpenAPI requires to be unique in a document; the tool is the operation at #${clash.pointer})`
              : "";
          throw new InputError(
            { file, pointer },
            `operation ${method.toUpperCase()} ${path} and the operation at #${clash.pointer} both become tool "${name}"${repeated}`,
            "give them distinct operationIds (tool names keep only letters, digits, _ and -, up to 64 characters)",
          );
        }
        taken.set(name, { pointer, operationId: record.operationId });
        const trusted = trustedByConfig(options, name, record.operationId);
        const servers = operationServers(root, pathItem, record, trusted);
        const result = operationTool({
          document,
          file,
          dialect,
          name,
          method,
          path,
          pathItem,
          operation: record,
          servers: typeof servers === "string" ? [] : servers,
          strict: options.strict,
          renames: renamesFor(options, name, record.operationId),
          at: {
            parameters: `${ownerOf("parameters")}/parameters`,
            operation: written,
            operationKeys: { parameters: `${operationOwner("parameters")}/parameters`, requestBody: `${operationOwner("requestBody")}/requestBody` },
          },
        });
        if ("tool" in result && typeof servers === "string") skip(name, pointer, new Untranslatable(pointer, servers));
        else if ("tool" in result)
          tools.push(renamed === undefined ? result.tool : { ...result.tool, warnings: [...(result.tool.warnings ?? []), renamed.warning] });
        else skip(name, pointer, new Untranslatable(result.skip.pointer, result.skip.reason));
      } catch (error) {
        skip(name, pointer, error);
      }
    }
  }
  if (options.strict && refusals.length > 0) throw new InputErrors(refusals);
  return { tools, skipped };
}

/** What names each operation whose path item and operation can be followed, in document order (for qualifiedNames). */
function namingInputs(file: string, document: unknown, paths: Record<string, unknown>, version32: boolean): NamedOperation[] {
  const found: NamedOperation[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    if (path.startsWith("x-")) continue;
    const itemPointer = pointerOf("paths", path);
    try {
      const { item, ownerOf } = followPathItem(file, document, rawItem, itemPointer);
      for (const { method, key, operation } of operationsOf(item, version32)) {
        try {
          const { item: followed } = followOperation(file, document, operation, `${ownerOf(key[0] as string)}${pointerOf(...key)}`);
          if (followed === null || typeof followed !== "object" || Array.isArray(followed)) continue;
          const { operationId, tags } = followed as { operationId?: unknown; tags?: unknown };
          found.push({ pointer: `${itemPointer}${pointerOf(...key)}`, operationId, tags, method, path });
        } catch {
          // The main loop skips this operation with its reason.
        }
      }
    } catch {
      // The main loop skips this path item with its reason.
    }
  }
  return found;
}

/**
 * The operations of a path item, in the order tools are read: the fixed methods, then (3.2) the
 * `query` method and each `additionalOperations` entry, whose key is the method as sent. `key`
 * is the operation's place under the path item, as JSON Pointer tokens.
 */
function operationsOf(pathItem: Record<string, unknown>, version32: boolean): { method: string; key: string[]; operation: unknown }[] {
  const found: { method: string; key: string[]; operation: unknown }[] = METHODS.filter((method) => pathItem[method] !== undefined).map((method) => ({
    method,
    key: [method],
    operation: pathItem[method],
  }));
  if (!version32) return found;
  if (pathItem.query !== undefined) found.push({ method: "query", key: ["query"], operation: pathItem.query });
  const additional = pathItem.additionalOperations;
  if (additional === null || typeof additional !== "object" || Array.isArray(additional)) return found;
  for (const [method, operation] of Object.entries(additional)) found.push({ method, key: ["additionalOperations", method], operation });
  return found;
}

/** A 3.2 `additionalOperations` key must be a method that can be sent, and not one a fixed field names. */
function checkAdditionalMethod(file: string, pointer: string, method: string, path: string): void {
  if (!HTTP_TOKEN.test(method))
    throw new InputError(
      { file, pointer },
      `additionalOperations key ${JSON.stringify(method)} of ${path} is not an HTTP method (a token)`,
      "name the method as it is sent, e.g. COPY",
    );
  const lower = method.toLowerCase();
  if ((METHODS as readonly string[]).includes(lower) || lower === "query")
    throw new InputError(
      { file, pointer },
      `additionalOperations of ${path} names ${method}, which the path item's own \`${lower}\` field describes`,
      `move the operation to the path item's \`${lower}\` field`,
    );
}

function checkDocument(file: string, document: unknown): Record<string, unknown> {
  const version = document !== null && typeof document === "object" ? (document as Record<string, unknown>).openapi : undefined;
  if (typeof version !== "string" || !/^3\.[012]\.\d+/.test(version)) {
    const swagger = document !== null && typeof document === "object" ? (document as Record<string, unknown>).swagger : undefined;
    if (version === undefined && swagger !== undefined) {
      throw new InputError(
        { file, pointer: "/swagger" },
        `a Swagger ${JSON.stringify(swagger)} document, not OpenAPI 3.0, 3.1 or 3.2`,
        "generate from the schema set (readSchemaSet converts Swagger 2.0 documents), or convert it to OpenAPI 3.x",
      );
    }
    const found = version === undefined ? "no `openapi` field" : `openapi: ${JSON.stringify(version)}`;
    throw new InputError(
      { file, pointer: version === undefined ? "" : "/openapi" },
      `not an OpenAPI 3.0, 3.1 or 3.2 document (${found})`,
      "give the document `openapi: 3.0.x`, `3.1.x` or `3.2.x`; convert Swagger 2.0 documents first",
    );
  }
  const root = document as Record<string, unknown>;
  if (root.paths !== undefined && (root.paths === null || typeof root.paths !== "object" || Array.isArray(root.paths))) {
    throw new InputError({ file, pointer: "/paths" }, "`paths` must be an object", "map each path to a Path Item Object");
  }
  return root;
}

function schemaDialect(file: string, root: Record<string, unknown>): SchemaDialect {
  if ((root.openapi as string).startsWith("3.0")) return "oas30";
  if (root.jsonSchemaDialect === undefined) return "2020-12";
  const dialect = typeof root.jsonSchemaDialect === "string" ? dialectOf(root.jsonSchemaDialect) : undefined;
  if (dialect === undefined) {
    throw new InputError(
      { file, pointer: "/jsonSchemaDialect" },
      `unknown jsonSchemaDialect ${JSON.stringify(root.jsonSchemaDialect)}`,
      "use the OpenAPI 3.1 or 3.2 base dialect, JSON Schema 2020-12 or draft-07",
    );
  }
  return dialect;
}

/** The config's argument names (`argumentNames`) for this operation: its own entry's over "*"'s. */
function renamesFor(options: ReadOpenApiOptions, name: string, operationId: unknown): ArgumentRenames | undefined {
  const config = options.argumentNames;
  if (config === undefined) return undefined;
  const keys = ["*", ...new Set([name, ...(typeof operationId === "string" ? [operationId] : [])])].filter((key) => Object.hasOwn(config, key));
  if (keys.length === 0) return undefined;
  const renames = new Map<string, string>();
  const from = new Map<string, string>();
  for (const key of keys) {
    for (const [parameter, arg] of Object.entries(config[key] ?? {})) {
      renames.set(parameter, arg);
      from.set(parameter, key);
    }
  }
  return { get: (parameter) => renames.get(parameter), used: (parameter) => options.renamesUsed?.add(`${from.get(parameter)} ${parameter}`) };
}

/** Whether the config (`trustServers`) accepts this operation's own servers; records the name it matched. */
function trustedByConfig(options: ReadOpenApiOptions, name: string, operationId: unknown): boolean {
  const trust = options.trustServers;
  if (trust === true) return true;
  if (trust === undefined) return false;
  const matched = trust.filter((entry) => entry === name || entry === operationId);
  for (const entry of matched) options.trustNamed?.add(entry);
  return matched.length > 0;
}
