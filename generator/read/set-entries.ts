// Which documents of a schema set are read as tools. A vendor's API description split over
// many files (DigitalOcean's: one entry document, thousands of files it `$ref`s) is one OpenAPI
// document: the files reached through `$ref` are parts of it, never tool files of their own.
// The entry is the file the config names, or every OpenAPI document (a top-level `openapi`)
// that no other part of an OpenAPI document references.
import path from "node:path";
import { InputError } from "../errors.ts";
import type { LoadedDocument } from "../load/load-document.ts";

export interface SetDocument {
  /** Absolute path. */
  readonly file: string;
  readonly read: LoadedDocument;
}

/** The absolute files `read` references through relative `$ref`s (fragments dropped). */
export function referencedFiles(file: string, document: unknown): Set<string> {
  const found = new Set<string>();
  /** `names`: `node` maps names to schemas or other objects (`properties`...): its keys are not keywords. */
  const walk = (node: unknown, names = false): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
    } else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (names) {
          // A property (or definition, parameter...) called `example` or `$ref` is a schema like any other.
          walk(value);
        } else if (NAMED_MAPS.has(key)) {
          walk(value, true);
        } else if (key === "$ref" && typeof value === "string") {
          const address = value.split("#", 1)[0] ?? "";
          if (address !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(address)) found.add(path.resolve(path.dirname(file), decodeURIComponent(address)));
        } else if (key === "examples" && value !== null && typeof value === "object" && !Array.isArray(value)) {
          walkExamples(value as Record<string, unknown>);
        } else if (key !== "example" && key !== "examples") {
          walk(value);
        }
      }
    }
  };
  // A map of Example objects (a media type's, a parameter's, `components.examples`): each may be
  // a reference to a file (Redocly's split puts them in components/examples/); their `value`s
  // are data, not followed. Anything else under that name (a property called `examples`) is walked.
  const walkExamples = (map: Record<string, unknown>): void => {
    if (typeof map.$ref === "string") {
      walk(map);
      return;
    }
    for (const entry of Object.values(map)) {
      const isExample = entry !== null && typeof entry === "object" && Object.keys(entry).every((key) => EXAMPLE_KEYS.has(key) || key.startsWith("x-"));
      walk(isExample ? { $ref: (entry as { $ref?: unknown }).$ref } : entry);
    }
  };
  walk(document);
  return found;
}

const EXAMPLE_KEYS: ReadonlySet<string> = new Set(["$ref", "summary", "description", "value", "externalValue"]);

/**
 * Keywords whose value maps names to schemas or OpenAPI objects (JSON Schema's and the
 * components'): a name there may be `example`, which elsewhere is a keyword holding data.
 */
const NAMED_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "parameters",
  "headers",
  "responses",
  "requestBodies",
  "pathItems",
  "callbacks",
  "links",
  "securitySchemes",
]);

/** An OpenAPI document (`openapi`), or a Swagger one (`swagger`), read through its conversion. */
export function isOpenApi(document: unknown): boolean {
  return document !== null && typeof document === "object" && !Array.isArray(document) && ("openapi" in document || "swagger" in document);
}

/** What a schema set reads: its entries, and the files it leaves out because nothing uses them. */
export interface SetEntries {
  readonly entries: SetDocument[];
  /**
   * Absolute paths of files that a set holding OpenAPI documents ignores: neither an OpenAPI
   * document nor a part of one (a vendor's examples, stray notes, models nothing references).
   */
  readonly ignored: string[];
}

/**
 * The documents to read as tools (OpenAPI entries and tool files), leaving out every file
 * another file references. With `entry`, that document alone. When the set holds an OpenAPI
 * document, the files nothing references that are not OpenAPI documents are ignored: a vendor's
 * repository carries examples, models and notes its entry never uses, and reading those as tool
 * files would refuse the whole set. `unread` are files that could not be parsed: ignored too
 * when the set is an OpenAPI folder and no document references them, else their errors stand.
 */
export function setEntries(documents: readonly SetDocument[], root: string, entry: string | undefined, unread: readonly string[] = []): SetEntries {
  if (entry !== undefined) {
    const named = documents.find((document) => document.file === entry);
    const relative = path.relative(root, entry);
    if (!named)
      throw new InputError(
        { file: relative, pointer: "" },
        "the set's entry document is not in the schema folder",
        "point `entry` at an OpenAPI document under the set's `schemas` folder (relative to it)",
      );
    if (!isOpenApi(named.read.document))
      throw new InputError(
        { file: relative, pointer: "" },
        "the set's entry has no top-level `openapi` field (nor `swagger`, for Swagger 2.0)",
        "point `entry` (or `schemas`, when it names a file) at the OpenAPI document's root file",
      );
    return { entries: [named], ignored: [] };
  }
  // Everything reachable from an OpenAPI document through `$ref`s is part of one. (Tool files
  // that `$ref` each other stay tools when the set has no OpenAPI document.)
  const byFile = new Map(documents.map((document) => [document.file, document]));
  const parts = new Set<string>();
  const openApi = documents.filter((document) => isOpenApi(document.read.document));
  const queue = [...openApi];
  const visited = new Set<string>();
  while (queue.length > 0) {
    const document = queue.pop() as SetDocument;
    if (visited.has(document.file)) continue;
    visited.add(document.file);
    for (const target of referencedFiles(document.file, document.read.document)) {
      if (target === document.file) continue;
      parts.add(target);
      const next = byFile.get(target);
      if (next) queue.push(next);
    }
  }
  const unparts = documents.filter((document) => !parts.has(document.file));
  if (openApi.length === 0) return { entries: unparts, ignored: [] };
  // A file in one of the tool shapes that name themselves (MCP, Anthropic, OpenAI) is a tool the
  // team put beside the document, and stays one; a vendor's stray files are none of these.
  const kept = (document: SetDocument): boolean => isOpenApi(document.read.document) || isNamedToolShape(document.read.document);
  const entries = unparts.filter(kept);
  const ignored = [...unparts.filter((document) => !kept(document)).map((document) => document.file), ...unread.filter((file) => !parts.has(file))];
  return { entries, ignored: ignored.sort() };
}

/**
 * The one line a set's summary gets for its ignored files: how many, and in which folders
 * (relative to the set's root), so that a user who meant one of them as a tool sees why not.
 */
export function ignoredFilesNote(root: string, ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const folders = [...new Set(ignored.map((file) => path.relative(root, path.dirname(file)).split(path.sep).join("/") || "."))].sort();
  const shown = folders.slice(0, 5).map((folder) => (folder === "." ? "the top folder" : `${folder}/`));
  const more = folders.length > 5 ? ` and ${folders.length - 5} more folders` : "";
  return `ignored ${ignored.length} file${ignored.length === 1 ? "" : "s"} that no OpenAPI document of the set references (in ${shown.join(", ")}${more}); a tool file beside OpenAPI documents must name itself (MCP, Anthropic or OpenAI shape), or go in a set of its own`;
}

/**
 * A tool file in a shape that names the tool: MCP's `{name, inputSchema}`, Anthropic's
 * `{name, input_schema}`, OpenAI's `{type: "function", function: {name, parameters}}` or its flat
 * form. (A bare JSON Schema with a title is a tool only in a set without OpenAPI documents: a
 * vendor's models have titles too.)
 */
function isNamedToolShape(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const file = value as Record<string, unknown>;
  const object = (part: unknown): boolean => part !== null && typeof part === "object" && !Array.isArray(part);
  if (typeof file.name === "string" && (object(file.inputSchema) || object(file.input_schema))) return true;
  if (file.type !== "function") return false;
  const fn = object(file.function) ? (file.function as Record<string, unknown>) : file;
  return typeof fn.name === "string" && (fn.parameters === undefined || object(fn.parameters));
}
