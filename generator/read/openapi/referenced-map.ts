// `properties: {$ref: "#/components/schemas/Droplet/properties"}`: DigitalOcean's description
// (and others split by hand) writes a whole `properties` map as a `$ref` to another schema's
// map. A property's schema is never a string, so a `$ref` key with a string value in a name map
// is a reference to the map, not a property named `$ref` (issue 32: 3 DigitalOcean operations
// were skipped "expected a schema object"). It is read as the map it names, when that is what it
// resolves to; otherwise the skip reason says what it found.
import { resolvePointer } from "../../json-pointer.ts";
import { pointerToken } from "../../json-pointer.ts";
import { Untranslatable } from "./untranslatable.ts";

/** One entry of a name map: its name, its schema, and the schema's pointer in the document. */
export interface MapEntry {
  readonly name: string;
  readonly value: unknown;
  readonly pointer: string;
}

const MAX_HOPS = 16;

/**
 * The entries of the name map `value` (of keyword `keyword`, at `pointer`): as written, or, for a
 * map that is a `$ref`, the entries of the map it resolves to (the `$ref`'s siblings added, and
 * winning, as names beside it).
 */
export function mapEntries(document: unknown, keyword: string, value: Record<string, unknown>, pointer: string): MapEntry[] {
  const ref = value.$ref;
  const own = Object.entries(value)
    .filter(([name]) => typeof ref !== "string" || name !== "$ref")
    .map(([name, child]) => ({ name, value: child, pointer: `${pointer}/${pointerToken(name)}` }));
  if (typeof ref !== "string") return own;
  const [target, at] = follow(document, ref, `${pointer}/$ref`, keyword);
  const ownNames = new Set(own.map((entry) => entry.name));
  const referenced = Object.entries(target)
    .filter(([name]) => !ownNames.has(name))
    .map(([name, child]) => ({ name, value: child, pointer: `${at}/${pointerToken(name)}` }));
  return [...referenced, ...own];
}

/** The map `ref` resolves to (through `$ref`s to `$ref`s), and its pointer; else the reason it is not one. */
function follow(document: unknown, first: string, at: string, keyword: string): [Record<string, unknown>, string] {
  let ref = first;
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    if (!ref.startsWith("#")) throw new Untranslatable(at, `\`${keyword}\` is a $ref "${ref}" outside the document`);
    let pointer: string;
    try {
      pointer = decodeURIComponent(ref.slice(1));
    } catch {
      throw new Untranslatable(at, `\`${keyword}\` is a $ref "${ref}" that is not valid URI encoding`);
    }
    const target = resolvePointer(document, pointer);
    if (target === undefined) throw new Untranslatable(at, `\`${keyword}\` is a $ref "${ref}" that points at nothing`);
    if (target === null || typeof target !== "object" || Array.isArray(target))
      throw new Untranslatable(at, `\`${keyword}\` is a $ref "${ref}" to ${describe(target)}, not a map of names to schemas`);
    const record = target as Record<string, unknown>;
    if (typeof record.$ref === "string" && Object.keys(record).length === 1) {
      ref = record.$ref;
      continue;
    }
    const notSchema = Object.entries(record).find(
      ([, child]) => typeof child !== "boolean" && (child === null || typeof child !== "object" || Array.isArray(child)),
    );
    if (notSchema !== undefined)
      throw new Untranslatable(
        at,
        `\`${keyword}\` is a $ref "${ref}" to an object whose "${notSchema[0]}" is ${describe(notSchema[1])}, not a schema: it is not a map of names to schemas`,
      );
    return [record, pointer];
  }
  throw new Untranslatable(at, `\`${keyword}\` is a $ref "${first}" in a chain of more than ${MAX_HOPS} $refs`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `the string ${JSON.stringify(value.slice(0, 40))}` : `a ${typeof value}`;
}
