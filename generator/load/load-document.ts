// Loads one schema document and bundles its `$ref`s with json-schema-ref-parser: references to
// other files become internal references, recursion stays a reference (never expanded). Only
// files under the schema root are read, and the network only when the config allows it.
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../errors.ts";
import { parseSchemaText } from "./parse-text.ts";
import { decodeToken } from "../json-pointer.ts";
import { childPlace, type Place } from "./data-positions.ts";
import { hideFromRefParser, showHidden } from "./hidden-refs.ts";

export interface LoadOptions {
  /** Absolute path of the schema root; no file outside it is read. */
  readonly root: string;
  /** Allow `$ref`s to http(s) URLs. Off by default: generation must not depend on the network. */
  readonly allowNetwork?: boolean;
  /** Documents the schema set already parsed (absolute path to value), read again by no one. */
  readonly parsed?: ReadonlyMap<string, unknown>;
}

export interface LoadedDocument {
  /** Path relative to the root, with forward slashes. */
  readonly file: string;
  /** The document with every external `$ref` bundled into an internal one. */
  readonly document: unknown;
}

export function relativeToRoot(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join("/");
}

/** Whether `real` (a path with its links resolved) is the schema root `root` (also real) or inside it. */
export function isInsideRoot(root: string, real: string): boolean {
  return real === root || real.startsWith(root + path.sep);
}

// A schema set reads its thousands of files with one options object: its root is resolved once.
const realRoots = new WeakMap<LoadOptions, Promise<string>>();
function realRoot(options: LoadOptions): Promise<string> {
  let root = realRoots.get(options);
  if (root === undefined) realRoots.set(options, (root = realpath(options.root)));
  return root;
}

/** Reads and parses one document without touching its `$ref`s. */
export async function readDocument(absoluteFile: string, options: LoadOptions): Promise<LoadedDocument> {
  const root = await realRoot(options);
  const file = relativeToRoot(root, absoluteFile);
  const text = await readFile(absoluteFile, "utf8");
  return { file, document: parseSchemaText(file, text) };
}

/** Reads one document and bundles its external `$ref`s, `#` meaning the document's root. */
export async function loadDocument(absoluteFile: string, options: LoadOptions): Promise<LoadedDocument> {
  const read = await readDocument(absoluteFile, options);
  return { file: read.file, document: await bundleRefs(absoluteFile, read.document, options) };
}

/**
 * Bundles the `$ref`s of `value`, a schema that lives in `absoluteFile`, with `#` meaning
 * `value` itself: a tool's input schema is the document its references are relative to.
 * `keepDangling` leaves a local `#/...` `$ref` that points at nothing as it is, for the reader
 * to report (an OpenAPI document: the operations reaching it are skipped); else it is an error.
 */
export async function bundleRefs(absoluteFile: string, value: unknown, options: LoadOptions, keepDangling = false): Promise<unknown> {
  if (onlyPlainLocalRefs(value, keepDangling)) return value;
  const { $RefParser } = await import("@apidevtools/json-schema-ref-parser");
  const root = await realRoot(options);
  const file = relativeToRoot(root, absoluteFile);
  const confinedFile = {
    order: 1,
    canRead: (info: { url: string }) => !/^https?:/i.test(info.url),
    read: async (info: { url: string }) => {
      const target = info.url.startsWith("file:") ? fileURLToPath(info.url) : decodeURIComponent(info.url);
      const real = await realpath(target).catch(() => {
        throw new InputError(
          { file, pointer: "" },
          `$ref points to a file that does not exist: ${relativeToRoot(root, target)}`,
          "correct the $ref's path (relative to the file that contains it)",
        );
      });
      if (!isInsideRoot(root, real)) {
        throw new InputError({ file, pointer: "" }, `$ref reaches outside the schema root: ${target}`, `keep every referenced file under ${root}`);
      }
      return readFile(real, "utf8");
    },
  };
  const network = {
    order: 2,
    canRead: /^https?:/i,
    read: async (info: { url: string }) => {
      if (!options.allowNetwork) {
        throw new InputError(
          { file, pointer: "" },
          `$ref points to the network (${info.url}) and network access is off`,
          "vendor the referenced schema under the schema root, or set allowNetwork: true in the config",
        );
      }
      const response = await fetch(info.url);
      if (!response.ok) throw new InputError({ file, pointer: "" }, `$ref ${info.url} answered HTTP ${response.status}`, "check the URL");
      return response.text();
    },
  };
  const parser = (order: number, canParse: RegExp) => ({
    order,
    canParse,
    parse: (info: { url: string; data: string | Buffer }) => parseSchemaText(info.url, String(info.data)),
  });
  try {
    const hidden = hideFromRefParser(structuredClone(value), keepDangling);
    const bundled = await $RefParser.bundle(absoluteFile, hidden.value as object, {
      resolve: { file: confinedFile, http: false, network } as never,
      parse: { yaml: parser(100, /\.ya?ml$/i), json: parser(50, /\.json$/i) } as never,
      mutateInputSchema: true,
    });
    return showHidden(bundled, hidden);
  } catch (error) {
    throw asInputError(error, file);
  }
}

function asInputError(error: unknown, file: string): InputError {
  if (error instanceof InputError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof InputError) return cause;
  const message = error instanceof Error ? error.message : String(error);
  const missingPointer = /Missing \$ref pointer "([^"]*)"/.exec(message);
  if (missingPointer) {
    return new InputError({ file, pointer: "" }, `dangling $ref: nothing at ${missingPointer[1]}`, "point the $ref at an existing definition");
  }
  return new InputError(
    { file, pointer: "" },
    `could not resolve $ref: ${message.split("\n")[0]}`,
    "check every $ref in this file and the files it references",
  );
}

/** Characters a `#` reference may hold for ref-parser to keep it exactly as written. */
const PLAIN_LOCAL_REF = /^#(?:\/[A-Za-z0-9_.~-]+)*$/;

/**
 * True when bundling would leave `value` as it is: every `$ref` is a `#/...` pointer that
 * resolves in `value` without passing through another `$ref`, or dangles (nothing there, and no
 * `$ref` on the way), and no `$id` (or draft-04 schema) moves what `#` means. Bundling then only
 * walks the document (seconds on a 10 MB spec). A dangling `$ref` is the reader's to report: it
 * skips the operations that reach it and no other (issue 32). `$ref`s in data are not references.
 */
function onlyPlainLocalRefs(root: unknown, keepDangling: boolean): boolean {
  const refs: string[] = [];
  const plain = (value: unknown, place: Place): boolean => {
    if (Array.isArray(value)) return value.every((item) => plain(item, place));
    if (value === null || typeof value !== "object") return true;
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") {
        if (!PLAIN_LOCAL_REF.test(child)) return false;
        refs.push(child);
        continue;
      }
      const inner = childPlace(place, key, child);
      if (inner === "data") continue;
      if (key === "$id" && typeof child === "string") return false;
      if (key === "$schema" && typeof child === "string" && child.includes("draft-04")) return false;
      if (!plain(child, inner)) return false;
    }
    return true;
  };
  if (!plain(root, "keywords")) return false;
  return [...new Set(refs)].every((ref) => {
    const target = localTarget(root, ref);
    return target === "found" || (keepDangling && target === "dangling");
  });
}

/** What a local `#/...` `$ref` reaches in `root`, read literally (no `$ref` followed on the way). */
function localTarget(root: unknown, ref: string): "found" | "dangling" | "through a $ref" {
  let current = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    if (isRefObject(current)) return "through a $ref";
    const token = decodeToken(raw);
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, token)) return "dangling";
    current = (current as Record<string, unknown>)[token];
  }
  if (isRefObject(current)) return "through a $ref";
  return current !== null && typeof current === "object" ? "found" : "through a $ref"; // a value, not a schema: ref-parser's to judge
}

function isRefObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && typeof (value as { $ref?: unknown }).$ref === "string";
}
