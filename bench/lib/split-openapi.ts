// Splits a one-file OpenAPI description into the multi-file layout Redocly documents for its
// `split` command (and its openapi-starter): openapi.yaml at the root, one file per path item in
// paths/ (`/repos/{owner}/{repo}` becomes `repos@{owner}@{repo}.yaml`), one file per component
// in components/<section>/ (`components/schemas/Pet.yaml`), and every `#/...` reference rewritten
// as a relative one (`../components/schemas/Pet.yaml`, `Pet.yaml#/properties/id`).
//
// This is a mechanical split, not any vendor's own source: no vendor we know publishes its split
// source on npm. It gives the split-set reading a description of thousands of files laid out as
// split sources are. Usage: `npx node bench/lib/split-openapi.ts <description.json> <out-folder>`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";

type Node = Record<string, unknown>;

const decode = (token: string): string => decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~");
const encode = (token: string): string => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** A file name for a path or component name: `/` as `@` (Redocly's choice), and nothing else a file system refuses. */
function fileName(name: string): string {
  return `${name.replace(/^\//, "").replaceAll("/", "@").replaceAll("\0", "") || "_root"}.yaml`;
}

/** Which file each path item and component goes to, relative to the root. */
function layout(document: Node): Map<string, string> {
  const files = new Map<string, string>(); // "#/paths/~1pets" or "#/components/schemas/Pet" -> file
  const taken = new Set<string>();
  const place = (pointer: string, file: string): void => {
    let unique = file;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = file.replace(/\.yaml$/, `_${n}.yaml`);
    taken.add(unique.toLowerCase());
    files.set(pointer, unique);
  };
  for (const name of Object.keys((document.paths as Node) ?? {})) place(`#/paths/${encode(name)}`, `paths/${fileName(name)}`);
  for (const [section, entries] of Object.entries((document.components as Node) ?? {})) {
    if (entries === null || typeof entries !== "object" || section.startsWith("x-")) continue;
    for (const name of Object.keys(entries)) place(`#/components/${section}/${encode(name)}`, `components/${section}/${fileName(name)}`);
  }
  return files;
}

/**
 * The node with each `#/...` reference made relative to `from` (a file under the root). Every
 * `$ref` is rewritten, also inside `example` values: GitHub's description writes
 * `example: {$ref: "#/components/examples/..."}`, and reference resolvers (ref-parser, Redocly)
 * follow those too, so a split must keep them pointing somewhere.
 */
function rewrite(node: unknown, from: string, files: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, from, files));
  if (node === null || typeof node !== "object") return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/") ? relativeRef(value, from, files) : rewrite(value, from, files);
  }
  return out;
}

function relativeRef(ref: string, from: string, files: Map<string, string>): string {
  const tokens = ref.slice(2).split("/");
  const depth = tokens[0] === "paths" ? 2 : 3; // #/paths/<name> or #/components/<section>/<name>
  const owner = `#/${tokens.slice(0, depth).join("/")}`;
  const file = files.get(owner) ?? files.get(`#/${tokens.slice(0, depth).map(decode).map(encode).join("/")}`);
  if (file === undefined) throw new Error(`${from}: cannot place the target of ${ref}`);
  const rest = tokens.slice(depth);
  let relative = path.posix.relative(path.posix.dirname(from), file);
  if (!relative.startsWith(".")) relative = `./${relative}`;
  return rest.length === 0 ? relative : `${relative}#/${rest.join("/")}`;
}

/** The files of the split layout, keyed by path relative to the output folder. */
export function splitOpenApi(document: Node): Map<string, string> {
  const files = layout(document);
  const out = new Map<string, string>();
  const write = (file: string, value: unknown): void => {
    out.set(file, stringify(rewrite(value, file, files), { aliasDuplicateObjects: false, lineWidth: 0 }));
  };
  const root: Node = { ...document, paths: {} };
  for (const [name, item] of Object.entries((document.paths as Node) ?? {})) {
    const file = files.get(`#/paths/${encode(name)}`) as string;
    (root.paths as Node)[name] = { $ref: `#/paths/${encode(name)}` };
    write(file, item);
  }
  if (document.components) {
    root.components = {};
    for (const [section, entries] of Object.entries(document.components as Node)) {
      if (entries === null || typeof entries !== "object" || section.startsWith("x-")) {
        (root.components as Node)[section] = entries;
        continue;
      }
      const kept: Node = {};
      for (const [name, value] of Object.entries(entries)) {
        const pointer = `#/components/${section}/${encode(name)}`;
        kept[name] = { $ref: pointer };
        write(files.get(pointer) as string, value);
      }
      (root.components as Node)[section] = kept;
    }
  }
  write("openapi.yaml", root);
  return out;
}

/** Writes the split layout of `input` (a JSON description) into `folder`; returns the file count. */
export function splitOpenApiFile(input: string, folder: string): number {
  const files = splitOpenApi(JSON.parse(readFileSync(input, "utf8")) as Node);
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), text);
  }
  return files.size;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [input, folder] = process.argv.slice(2);
  if (!input || !folder) {
    console.error("usage: node bench/lib/split-openapi.ts <description.json> <out-folder>");
    process.exit(2);
  }
  console.log(`${splitOpenApiFile(input, folder)} files written to ${folder}`);
}
