// Bundles an OpenAPI document's $refs (see bundleRefs), and when a $ref is broken, says which $ref
// (its JSON Pointer in the document) and which operations use it, not only that one is broken.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../errors.ts";
import { bundleRefs, readDocument, type LoadedDocument, type LoadOptions } from "../../load/load-document.ts";

import { bundleFiles, hasFileRefs } from "../../load/bundle-files.ts";
import { parseSchemaText } from "../../load/parse-text.ts";
import { pointerToken, resolvePointer } from "../../json-pointer.ts";
import { childPlace, type Place } from "../../load/data-positions.ts";

/** `read` is the document as readDocument returned it, when the caller has already parsed it. */
export async function loadOpenApiDocument(absoluteFile: string, options: LoadOptions, read?: LoadedDocument): Promise<LoadedDocument> {
  const loaded = read ?? (await readDocument(absoluteFile, options));
  try {
    // Files first, with our own bundler (each file parsed once); what is left is internal refs.
    const files = hasFileRefs(loaded.document) ? bundleFiles(absoluteFile, loaded.document, options, options.parsed) : undefined;
    // A dangling `#/...` is left for the reader, which skips only the operations reaching it.
    return { file: loaded.file, document: await bundleRefs(absoluteFile, files ?? loaded.document, options, true) };
  } catch (error) {
    if (!(error instanceof InputError) || error.location.pointer !== "") throw error;
    throw locateBrokenRef(absoluteFile, error) ?? error;
  }
}

interface RefSite {
  readonly pointer: string;
  readonly ref: string;
}

function locateBrokenRef(absoluteFile: string, original: InputError): InputError | undefined {
  let document: unknown;
  try {
    document = parseSchemaText(absoluteFile, readFileSync(absoluteFile, "utf8"));
  } catch {
    return undefined;
  }
  const sites: RefSite[] = [];
  collectRefs(document, "", sites);
  // A dangling local pointer is the reader's to report (it skips the operations that reach it):
  // what refused the document is a file reference first.
  const missing = sites.filter((site) => !refTargetExists(document, absoluteFile, site.ref));
  const broken = missing.find((site) => !site.ref.startsWith("#")) ?? missing[0];
  if (broken === undefined) return undefined;
  const operations = operationsReaching(document, sites, broken.pointer);
  const users =
    operations.length > 0 ? ` used by operation ${operations.slice(0, 5).join(", ")}${operations.length > 5 ? ` and ${operations.length - 5} more` : ""}` : "";
  return new InputError({ file: original.location.file, pointer: broken.pointer }, `broken $ref "${broken.ref}"${users}: ${original.message}`, original.fix);
}

/** Every `$ref` of the document; those in data (an enum value, an example: data-positions.ts) are none. */
function collectRefs(value: unknown, at: string, sites: RefSite[], place: Place = "keywords"): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectRefs(item, `${at}/${index}`, sites, place);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") sites.push({ pointer: `${at}/$ref`, ref: child });
      else {
        const inner = childPlace(place, key, child);
        if (inner !== "data") collectRefs(child, `${at}/${pointerToken(key)}`, sites, inner);
      }
    }
  }
}

function refTargetExists(document: unknown, absoluteFile: string, ref: string): boolean {
  const [address = "", fragment] = ref.split("#", 2);
  if (/^https?:/i.test(address)) return true; // the network is loadDocument's to judge
  if (address === "") return resolvePointer(document, decodeURIComponent(fragment ?? "")) !== undefined;
  return existsSync(path.resolve(path.dirname(absoluteFile), decodeURIComponent(address)));
}

/** The operations (`createPet (POST /pets)`) whose subtree reaches `pointer` through local $refs. */
function operationsReaching(document: unknown, sites: readonly RefSite[], pointer: string): string[] {
  const labels: string[] = [];
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const [route, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!["get", "put", "post", "delete", "options", "head", "patch", "trace"].includes(method)) continue;
      const start = `/paths/${pointerToken(route)}/${method}`;
      if (reaches([start, `/paths/${pointerToken(route)}/parameters`], sites, pointer)) {
        const id = (operation as { operationId?: unknown } | null)?.operationId;
        labels.push(`${typeof id === "string" ? `${id} ` : ""}(${method.toUpperCase()} ${route})`);
      }
    }
  }
  return labels;
}

function reaches(starts: readonly string[], sites: readonly RefSite[], pointer: string): boolean {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const root = queue.pop() as string;
    if (seen.has(root)) continue;
    seen.add(root);
    if (pointer === root || pointer.startsWith(`${root}/`)) return true;
    for (const site of sites) {
      if (site.pointer.startsWith(`${root}/`) && site.ref.startsWith("#/")) queue.push(decodeURIComponent(site.ref.slice(1)));
    }
  }
  return false;
}
