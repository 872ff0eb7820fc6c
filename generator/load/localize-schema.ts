// Cuts one schema out of a bundled document so that it stands alone: `$ref`s into its own
// subtree are re-rooted, `$ref`s to the rest of the document (`#/components/schemas/Pet`,
// `#/definitions/Address`) pull their targets into the schema's own `$defs`. References stay
// references, so recursive types stay finite.
import { InputError } from "../errors.ts";
import { decodeToken, pointerToken, resolvePointer } from "../json-pointer.ts";
import { refFragment } from "../schema-walk.ts";
import { childPlace, type Place } from "./data-positions.ts";

export interface LocalizeOptions {
  /** The file the document came from, for errors. */
  readonly file: string;
  /** Where definitions go: `$defs` (2020-12) or `definitions` (draft-07). */
  readonly defsKeyword: "$defs" | "definitions";
}

export function localizeSchema(document: unknown, schemaPointer: string, options: LocalizeOptions): Record<string, unknown> {
  const root = resolvePointer(document, schemaPointer);
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    throw new InputError({ file: options.file, pointer: schemaPointer }, "expected a JSON Schema object here", "give the tool an object schema");
  }
  const imported = new Map<string, string>(); // document pointer -> local $ref
  const names = new Set<string>(Object.keys(((root as Record<string, unknown>)[options.defsKeyword] as object | undefined) ?? {}));
  const defs: Record<string, unknown> = {};

  const localRef = (target: string, at: string): string => {
    if (target === schemaPointer || target.startsWith(`${schemaPointer}/`)) return refTo(target.slice(schemaPointer.length));
    const known = imported.get(target);
    if (known !== undefined) return known;
    const value = resolvePointer(document, target);
    if (value === undefined) {
      throw new InputError({ file: options.file, pointer: at }, `dangling $ref: nothing at #${target}`, "point the $ref at an existing definition");
    }
    const name = uniqueName(decodeToken(target.split("/").pop() ?? "def"), names);
    const ref = refTo(`/${options.defsKeyword}/${pointerToken(name)}`);
    imported.set(target, ref);
    defs[name] = rewrite(value, target);
    return ref;
  };

  // Walks a subtree of the document, copying it with every `$ref` made local. Data (an enum
  // value, a default, an example, an `x-` value) is copied as it is: a `$ref` in it is no reference.
  const rewrite = (value: unknown, at: string, place: Place = "keywords"): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => rewrite(item, `${at}/${index}`, place));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") {
        out[key] = child.startsWith("#") ? localRef(refPointer(child, options.file, at), `${at}/$ref`) : child;
      } else {
        const inner = childPlace(place, key, child);
        out[key] = inner === "data" ? child : rewrite(child, `${at}/${pointerToken(key)}`, inner);
      }
    }
    return out;
  };

  const result = rewrite(root, schemaPointer) as Record<string, unknown>;
  if (Object.keys(defs).length > 0) {
    result[options.defsKeyword] = { ...((result[options.defsKeyword] as object | undefined) ?? {}), ...defs };
  }
  return result;
}

/** A `$ref` to a JSON Pointer of the tool's schema, encoded where readers would misread it (refFragment). */
export function refTo(pointer: string): string {
  return `#${refFragment(pointer)}`;
}

function refPointer(ref: string, file: string, at: string): string {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw new InputError({ file, pointer: at }, `$ref "${ref}" is not valid URI encoding`, "write `%` in a $ref as %25");
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw new InputError(
      { file, pointer: at },
      `$ref "${ref}" is an anchor, which toolguard does not resolve across documents`,
      "use a JSON Pointer $ref such as #/$defs/Name",
    );
  }
  return fragment;
}

/** `base`, or `base_2`, `base_3`… if taken; the name returned is marked taken. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}
