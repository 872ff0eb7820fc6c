// Bundles a document split over many files (Redocly's layout: openapi.yaml, paths/*.yaml,
// components/<section>/*.yaml, relative `$ref`s) into one in-memory document whose `$ref`s are
// all internal, reading and parsing each file once (files the schema set already parsed are
// reused). json-schema-ref-parser did this job by parsing every file a second time and
// inventorying every `$ref` (quadratic in their number): GitHub's description split over 2,581
// files took ~7 s to read against ~0.2 s as one file.
//
// Each referenced target (a file, or a pointer into one) is written out once, at the shallowest
// place that references it (ties: the order met, a `$ref` with siblings last, as ref-parser
// orders them), and every other reference to it becomes `#/<that place>`: the split's
// `components/schemas/Pet.yaml`, referenced from the entry's `components.schemas.Pet`, lands at
// `#/components/schemas/Pet`, as in the one-file description. Only files under the schema root
// are read (symlinks resolved first); documents with network `$ref`s, other URI schemes or `$id`
// are left to ref-parser (`undefined` is returned).
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.ts";
import { pointer as joinPointer, pointerToken, pointerTokens } from "../json-pointer.ts";
import { isInsideRoot, relativeToRoot, type LoadOptions } from "./load-document.ts";
import { parseSchemaText } from "./parse-text.ts";
import { refFragment } from "../schema-walk.ts";
import { childPlace, type Place } from "./data-positions.ts";

type Json = unknown;

/** A place in a source file: its absolute path and a JSON Pointer into it. */
interface Target {
  readonly file: string;
  readonly pointer: string;
  /** Set when nothing is at the pointer: the reader reports it on the operations that reach it. */
  readonly dangling?: string;
}

interface Site {
  readonly out: string; // JSON Pointer of the `$ref` object in the bundled document
  readonly target: Target;
  readonly extended: boolean;
  readonly place: Place; // what the `$ref` object's keys are, and so its target's
}

const MAX_CHAIN = 1000;
// Objects the copies of merged targets may write, or the document's own count if larger: copies nest
// (n files each with two `$ref`s with siblings to the next make 2^n); past it a site points at the merge.
const COPY_BUDGET = 1_000;

/** The root key under which a dangling pointer into a file written nowhere is named (never written). */
const UNBUNDLED = "x-toolguard-not-bundled";

/** True when `value` holds a `$ref` to another file (the only case this bundler is for); data holds none. */
export function hasFileRefs(value: Json, place: Place = "keywords"): boolean {
  if (Array.isArray(value)) return value.some((item) => hasFileRefs(item, place));
  if (value === null || typeof value !== "object") return false;
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string") {
      if (!child.startsWith("#")) return true;
      continue;
    }
    const inner = childPlace(place, key, child);
    if (inner !== "data" && hasFileRefs(child, inner)) return true;
  }
  return false;
}

/**
 * One document with every relative file `$ref` made internal, or `undefined` when the set needs
 * ref-parser (network references, other URI schemes, `$id`). `parsed` holds documents already read
 * (absolute path to value); they are never changed. Files are read synchronously: nearly all are
 * in `parsed`, and an await per `$ref` cost more than the rest of the bundling.
 */
export function bundleFiles(entryFile: string, entry: Json, options: LoadOptions, parsed: ReadonlyMap<string, Json> = new Map()): Json | undefined {
  const root = realpathSync(options.root);
  const documents = new Map<string, Json>(parsed);
  documents.set(entryFile, entry);
  const key = (target: Target): string => `${target.file}#${target.pointer}`;
  const fail = (site: Target, ref: string, message: string, fix: string): InputError =>
    new InputError(locate(root, entryFile, site), `${site.file === entryFile ? "" : `$ref "${ref}": `}${message}`, fix);

  const load = (file: string, site: Target, ref: string): Json => {
    const known = documents.get(file);
    if (known !== undefined) return known;
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      const missing = `$ref points to a file that does not exist: ${relativeToRoot(root, file)}`;
      throw fail(site, ref, missing, "correct the $ref's path (relative to the file that contains it)");
    }
    if (!isInsideRoot(root, real)) {
      throw fail(site, ref, `$ref reaches outside the schema root: ${file}`, `keep every referenced file under ${root}`);
    }
    const value = parseSchemaText(relativeToRoot(root, file), readFileSync(real, "utf8"));
    documents.set(file, value);
    return value;
  };

  // The target a `$ref` written at `site` names, followed through any `$ref` met on the way (so
  // that two spellings of one place are one target); `undefined` for what ref-parser must do.
  const targetOf = (ref: string, site: Target): Target | undefined => {
    const hash = ref.indexOf("#");
    const address = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : uriDecoded(ref.slice(hash + 1));
    if (/^[a-z][a-z0-9+.-]*:/i.test(address) || (fragment !== "" && !fragment.startsWith("/"))) return undefined;
    const file = address === "" ? site.file : path.resolve(path.dirname(site.file), uriDecoded(address));
    let current: Target = { file, pointer: fragment };
    for (let step = 0; step < MAX_CHAIN; step++) {
      let node: Json = load(current.file, site, ref);
      let through: Target | undefined;
      const tokens = pointerTokens(current.pointer);
      for (const [index, token] of tokens.entries()) {
        const inner = (node as { $ref?: unknown } | null)?.$ref;
        if (typeof inner === "string") {
          const next = targetOf(inner, { file: current.file, pointer: joinPointer(...tokens.slice(0, index)) });
          if (next === undefined) return undefined;
          through = { file: next.file, pointer: next.pointer + joinPointer(...tokens.slice(index)) };
          break;
        }
        if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) {
          return { ...current, dangling: `dangling $ref: nothing at #${current.pointer} in ${relativeToRoot(root, current.file)}` };
        }
        node = (node as Record<string, Json>)[token];
      }
      if (through === undefined) return current;
      current = through;
    }
    throw fail(site, ref, "circular chain of $refs", "make one of the $refs point at a schema, not at another $ref");
  };

  const valueAt = (target: Target): Json => {
    let node = documents.get(target.file);
    for (const token of pointerTokens(target.pointer)) node = (node as Record<string, Json>)[token];
    return node;
  };

  // Pass 1: where each target goes, shallowest first. A node's place in the bundled document is
  // the place of the target being walked (`home`) followed by the node's pointer below it.
  const targets = new Map<string, Target>(); // where a `$ref` is written -> its target
  const placed = new Map<string, string>(); // target key -> its pointer in the bundled document
  const byDepth: Site[][] = [];
  let [refusal, walked] = [false, 0]; // walked: objects of the bundled document before copies
  const collect = (value: Json, at: Target, home: string, cut: number, place: Place): void => {
    if (refusal || value === null || typeof value !== "object") return;
    walked++;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) collect(item, { file: at.file, pointer: `${at.pointer}/${index}` }, home, cut, place);
      return;
    }
    if (typeof (value as { $id?: unknown }).$id === "string") refusal = true;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === "string") {
      const target = targetOf(ref, at);
      if (target === undefined) {
        refusal = true;
        return;
      }
      targets.set(key(at), target);
      const out = home + at.pointer.slice(cut);
      if (target.dangling === undefined) (byDepth[depthOf(out)] ??= []).push({ out, target, extended: Object.keys(value).length > 1, place });
    }
    for (const [name, child] of Object.entries(value)) {
      if (child === null || typeof child !== "object" || (name === "$ref" && typeof ref === "string")) continue; // no pointer built for a leaf
      const inner = childPlace(place, name, child);
      if (inner !== "data") collect(child, { file: at.file, pointer: `${at.pointer}/${pointerToken(name)}` }, home, cut, inner);
    }
  };
  // A `$ref` with siblings is written as the merge of both; were its target written there, every
  // other reference would point at the merge and take the siblings too (a `maxLength: 4` beside
  // one `$ref: Text.yaml` bounded every other use of Text.yaml: a false rejection the one-file
  // description has not). So such a site holds its target only when no plain site does (deferred
  // until every plain site is placed), and `mergedAt` names the targets written into a merge.
  const mergedAt = new Set<string>();
  const deferred: Site[] = [];
  const put = (site: Site): void => {
    placed.set(key(site.target), site.out);
    if (site.extended) mergedAt.add(key(site.target));
    collect(valueAt(site.target), site.target, site.out, site.target.pointer.length, site.place);
  };
  const drain = (): void => {
    for (let depth = 0; depth < byDepth.length && !refusal; depth++) {
      const sites = byDepth[depth] ?? [];
      // A site may add sites at its own depth (a file that is only a `$ref`): the loop sees them.
      for (let index = 0; index < sites.length; index++) {
        const site = sites[index] as Site;
        if (placement(placed, site.target) !== undefined) continue;
        if (site.extended) deferred.push(site);
        else put(site);
      }
      byDepth[depth] = [];
    }
  };
  placed.set(key({ file: entryFile, pointer: "" }), "");
  collect(entry, { file: entryFile, pointer: "" }, "", 0, "keywords");
  drain();
  for (let index = 0; index < deferred.length && !refusal; index++) {
    const site = deferred[index] as Site;
    if (placement(placed, site.target) !== undefined) continue;
    put(site);
    drain();
  }
  if (refusal) return undefined;

  // Pass 2: the document, each target written at its place, every other reference made internal.
  const copying = new Set<string>(); // targets whose copy is being written (copies of a merged target)
  let copied = 0; // objects written inside copies, against the budget
  const emit = (value: Json, at: Target, home: string, cut: number, place: Place, chain = 0): Json => {
    if (value === null || typeof value !== "object") return value;
    if (copying.size > 0) copied++;
    if (Array.isArray(value)) return value.map((item, index) => emit(item, { file: at.file, pointer: `${at.pointer}/${index}` }, home, cut, place));
    const ref = (value as { $ref?: unknown }).$ref;
    const result: Record<string, Json> = {};
    const siblings = (): void => {
      for (const [name, child] of Object.entries(value)) {
        if (name === "$ref" && typeof ref === "string") continue;
        const inner = childPlace(place, name, child);
        result[name] =
          child === null || typeof child !== "object" || inner === "data"
            ? child
            : emit(child, { file: at.file, pointer: `${at.pointer}/${pointerToken(name)}` }, home, cut, inner);
      }
    };
    if (typeof ref !== "string") {
      siblings();
      return result;
    }
    // The target's content written here: alone, or under a `$ref`'s siblings, which win over its keys (as ref-parser merges them).
    const merged = (content: Json): Json => {
      if (Object.keys(value).length === 1 || content === null || typeof content !== "object" || Array.isArray(content)) return content;
      siblings();
      for (const [name, child] of Object.entries(content)) if (!(name in result)) result[name] = child;
      return result;
    };
    const target = targets.get(key(at)) as Target;
    const out = home + at.pointer.slice(cut);
    if (target.dangling !== undefined) {
      // Left dangling in the bundled document, where the reader skips the operations that reach
      // it: as written when it points into the entry (whose pointers the bundle keeps), else at
      // the place its file (or an enclosing target) was written. A file written nowhere (only
      // this pointer names it) gets a pointer under an extension key no document holds, which
      // names the file and the pointer in the reader's skip reason.
      const written = placement(placed, target);
      if (at.file === entryFile && ref.startsWith("#")) result.$ref = ref;
      else if (written !== undefined) result.$ref = `#${refFragment(`${written[0]}${written[1]}`)}`;
      else result.$ref = `#${refFragment(joinPointer(UNBUNDLED, relativeToRoot(root, target.file)) + target.pointer)}`;
      siblings();
      return result;
    }
    if (placed.get(key(target)) === out) {
      if (chain > MAX_CHAIN) throw fail(at, ref, "circular chain of $refs", "make one of the $refs point at a schema, not at another $ref");
      return merged(emit(valueAt(target), target, out, target.pointer.length, place, chain + 1));
    }
    const targetKey = key(target);
    if (mergedAt.has(targetKey) && !copying.has(targetKey) && chain <= MAX_CHAIN && copied < Math.max(COPY_BUDGET, walked)) {
      // Its target is written only inside another site's merge: this site gets its own copy (with
      // its own siblings, if any), as ref-parser's dereference gives every site. A copy met inside
      // itself (a recursive target), or past the budget, points at the merge, as before.
      copying.add(targetKey);
      const content = emit(valueAt(target), target, out, target.pointer.length, place, chain + 1);
      copying.delete(targetKey);
      return merged(content);
    }
    const [placedAt, rest] = placement(placed, target) as [string, string];
    // Encoded as every `$ref` toolguard writes (refFragment): readers URI-decode a fragment.
    result.$ref = `#${refFragment(`${placedAt}${rest}`)}`;
    siblings();
    return result;
  };
  return emit(entry, { file: entryFile, pointer: "" }, "", 0, "keywords");
}

/** Where `target` was written: the place of it or of an enclosing target, and the pointer left. */
function placement(placed: ReadonlyMap<string, string>, target: Target): [string, string] | undefined {
  let pointer = target.pointer;
  for (;;) {
    const home = placed.get(`${target.file}#${pointer}`);
    if (home !== undefined) return [home, target.pointer.slice(pointer.length)];
    if (pointer === "") return undefined;
    pointer = pointer.slice(0, pointer.lastIndexOf("/"));
  }
}

/** `text` URI-decoded, or as written when it is not valid URI encoding (as ref-parser reads it). */
function uriDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function depthOf(pointer: string): number {
  let depth = 0;
  for (let index = pointer.indexOf("/"); index !== -1; index = pointer.indexOf("/", index + 1)) depth++;
  return depth;
}

// A `$ref` written in the entry is reported with an empty pointer so that the OpenAPI loader
// (load-openapi.ts) names it and the operations that use it; one in another file names its place.
function locate(root: string, entryFile: string, site: Target): { file: string; pointer: string } {
  if (site.file === entryFile) return { file: relativeToRoot(root, entryFile), pointer: "" };
  return { file: relativeToRoot(root, site.file), pointer: `${site.pointer}/$ref` };
}
