// Finds the documents of a schema set and hands each to the reader for its kind: OpenAPI
// documents (a top-level `openapi` field) to the OpenAPI reader, everything else to the tool
// file reader. Files that another file `$ref`s are parts of it, not documents (set-entries.ts).
import { readdir } from "node:fs/promises";
import path from "node:path";
import { InputError, InputErrors } from "../errors.ts";
import type { ArgumentNames } from "../config.ts";
import type { ReadResult, SkippedTool, ToolDescription } from "../ir.ts";
import { type LoadedDocument, type LoadOptions, readDocument, relativeToRoot } from "../load/load-document.ts";
import { loadOpenApiDocument } from "./openapi/load-openapi.ts";
import { readToolFile } from "./tool-file.ts";
import { checkSatisfiable } from "./unsatisfiable-arguments.ts";
import { isOpenApiDocument, readOpenApi } from "./openapi/read-openapi.ts";
import { convertedNote, convertSwagger, fromSwagger, isSwaggerDocument } from "./openapi/swagger.ts";
import { ignoredFilesNote, isOpenApi, setEntries, type SetDocument } from "./set-entries.ts";
import { defaultsOptional } from "./defaults-optional.ts";
import { checkUnknownFormats, type UnknownFormats } from "./unknown-formats.ts";
import { leaveOutUnknownKeywords } from "./unknown-keywords.ts";
import { noToolNote } from "./no-tool.ts";
import { assertWellFormedKeys } from "./schema-names.ts";

export interface ReadSetOptions {
  readonly allowNetwork: boolean;
  readonly strict: boolean;
  /** Absolute path of the set's one OpenAPI entry document (config `entry`); else found (set-entries.ts). */
  readonly entry?: string;
  /** Required fields with a `default` are optional (config `defaultsOptional`; defaults-optional.ts). */
  readonly defaultsOptional?: boolean;
  /** What a `format` toolguard does not know is (config `unknownFormats`; unknown-formats.ts). Default "annotate". */
  readonly unknownFormats?: UnknownFormats;
  /** Operations whose own servers on other origins are accepted (config `trustServers`; server-urls.ts). */
  readonly trustServers?: true | readonly string[];
  /** Argument names for parameters (config `argumentNames`; operation-parameters.ts). */
  readonly argumentNames?: ArgumentNames;
}

/** Files read at once. */
const READ_BATCH = 64;

/** The files of a schema set, sorted so that every run reads them in the same order. */
export async function listSchemaFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      // The set's own folder is named by its path (as "." it told the user nothing); a folder
      // inside it, relative to it, as every other message names files.
      const isRoot = dir === root;
      const why = error.code === "ENOENT" ? "no such folder" : error.code === "ENOTDIR" ? "not a folder" : (error.code ?? error.message);
      throw new InputError(
        { file: isRoot ? root : relativeToRoot(root, dir), pointer: "" },
        `cannot read the ${isRoot ? "set's schemas folder" : "schema folder"}: ${why}`,
        isRoot ? "create the folder, or point the config's `schemas` at an existing one" : "make the folder readable, or move it out of the set",
      );
    });
    for (const entry of entries) {
      // `_name` files and folders hold shared definitions that tools `$ref`; they are not tools.
      if (entry.name.startsWith(".") || entry.name.startsWith("_") || entry.name === "node_modules") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && /\.(json|ya?ml)$/i.test(entry.name)) found.push(full);
    }
  };
  await walk(root);
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export async function readSchemaSet(root: string, options: ReadSetOptions): Promise<ReadResult> {
  const files = await listSchemaFiles(root);
  if (files.length === 0) {
    throw new InputError(
      { file: root, pointer: "" },
      "no tool schemas found (looked for .json, .yaml and .yml files)",
      "add tool files to the folder, or point the config's `schemas` elsewhere",
    );
  }
  const tools: ToolDescription[] = [];
  const skipped: SkippedTool[] = [];
  const errors: InputError[] = [];
  const collect = (error: unknown): void => {
    if (error instanceof InputError) errors.push(error);
    else if (error instanceof InputErrors) errors.push(...error.errors);
    else throw error;
  };
  const load = { root, allowNetwork: options.allowNetwork };
  const documents: SetDocument[] = [];
  // Files that could not be parsed, and why: an error unless the set is an OpenAPI folder that
  // never references them (set-entries.ts).
  const unread = new Map<string, unknown>();
  // Read a batch at a time: one file after another leaves the process idle on I/O (half of the
  // read time of a 2,581-file split), all at once could run out of file handles.
  const wanted = options.entry !== undefined ? files.filter((candidate) => candidate === options.entry) : files;
  for (let start = 0; start < wanted.length; start += READ_BATCH) {
    const batch = wanted.slice(start, start + READ_BATCH);
    const reads = await Promise.allSettled(batch.map((file) => readDocument(file, load)));
    for (const [index, outcome] of reads.entries()) {
      if (outcome.status === "fulfilled") documents.push({ file: batch[index] as string, read: outcome.value });
      else unread.set(batch[index] as string, outcome.reason);
    }
  }
  // Parts of a split OpenAPI document are bundled from these, not read and parsed a second time.
  const parsed = new Map(documents.map((document) => [document.file, document.read.document]));
  let entries: SetDocument[] = [];
  const notes: string[] = [];
  try {
    const found = setEntries(documents, root, options.entry, [...unread.keys()]);
    entries = found.entries;
    const ignored = new Set(found.ignored);
    for (const [file, error] of unread) if (!ignored.has(file)) collect(error);
    const note = ignoredFilesNote(root, found.ignored);
    if (note !== undefined) notes.push(note);
  } catch (error) {
    for (const failure of unread.values()) collect(failure);
    collect(error);
  }
  const converted: string[] = [];
  const trustNamed = new Set<string>(); // the trustServers names some operation answers to
  const renamesUsed = new Set<string>(); // the argumentNames entries ("<operation> <in>.<name>") some parameter answers to
  for (const { file, read } of entries) {
    try {
      const result = isOpenApi(read.document)
        ? await readApiDescription(file, read, { ...load, parsed }, options, converted, { trustNamed, renamesUsed })
        : await readToolFile(read, file, load);
      for (const read of result.tools) {
        // Keys first: every later walk names places by their keys, and a lone surrogate has no
        // URI spelling (encodeURIComponent throws).
        try {
          assertWellFormedKeys(read);
        } catch (error) {
          // One operation of a vendor's document never refuses the rest (docs/openapi.md); a tool
          // file's problem is the team's own, and stops the run.
          if (!(error instanceof InputError) || !read.http || options.strict) throw error;
          skipped.push({ name: read.name, source: read.source, reason: `${error.message}; fix: ${error.fix}` });
          continue;
        }
        // A required argument that admits no value means no call can pass: skipped, as an
        // operation the guard cannot serve is (unsatisfiable-arguments.ts); --strict refuses it.
        const satisfiable = checkSatisfiable(read);
        if ("never" in satisfiable) {
          if (options.strict)
            throw new InputError(
              read.source,
              `tool ${read.name}: ${satisfiable.never}`,
              "give the argument a schema some value satisfies, or leave the tool out",
            );
          skipped.push({ name: read.name, source: read.source, reason: satisfiable.never });
          continue;
        }
        // A tool file's unknown annotation keywords are left out with a warning (unknown-keywords.ts).
        const annotated = leaveOutUnknownKeywords(satisfiable.tool, options.strict);
        const tool = options.defaultsOptional ? defaultsOptional(annotated) : annotated;
        // "refuse" is the team's own choice: an unknown format then stops the run, vendor's or not.
        tools.push(checkUnknownFormats(tool, options.unknownFormats ?? "annotate"));
      }
      skipped.push(...result.skipped);
    } catch (error) {
      collect(error);
    }
  }
  if (errors.length > 0) throw new InputErrors(errors);
  if (converted.length > 0) notes.push(convertedNote(converted));
  const unknown = Array.isArray(options.trustServers) ? options.trustServers.filter((name) => !trustNamed.has(name)) : [];
  if (unknown.length > 0)
    notes.push(`trustServers names ${unknown.map((name) => JSON.stringify(name)).join(", ")}, which no operation of the set has (by operationId or tool name)`);
  const unusedRenames = Object.entries(options.argumentNames ?? {}).flatMap(([operation, renames]) =>
    Object.keys(renames)
      .filter((parameter) => !renamesUsed.has(`${operation} ${parameter}`))
      .map((parameter) => `${JSON.stringify(operation)}: ${JSON.stringify(parameter)}`),
  );
  if (unusedRenames.length > 0)
    notes.push(`argumentNames renames ${unusedRenames.join(", ")}, which no operation of the set has (by operationId or tool name, then "<in>.<name>")`);
  if (tools.length === 0) notes.push(noToolNote(root, entries, skipped));
  return { tools, skipped, notes };
}

/** An OpenAPI document, or a Swagger 2.0 one converted first (openapi/swagger.ts); `converted` collects the latter. */
async function readApiDescription(
  file: string,
  read: LoadedDocument,
  load: LoadOptions,
  options: ReadSetOptions,
  converted: string[],
  used: { readonly trustNamed: Set<string>; readonly renamesUsed: Set<string> },
): Promise<ReadResult> {
  const loaded = await loadOpenApiDocument(file, load, read);
  const readOptions = { strict: options.strict, trustServers: options.trustServers, argumentNames: options.argumentNames, ...used };
  if (!isSwaggerDocument(loaded.document) || isOpenApiDocument(loaded.document)) return readOpenApi(loaded, readOptions);
  const document = await convertSwagger(loaded.file, loaded.document);
  converted.push(loaded.file);
  try {
    return readOpenApi({ file: loaded.file, document }, readOptions);
  } catch (error) {
    throw fromSwagger(error);
  }
}
