// OpenAPI's `readOnly`: a property only responses carry. The translation builds request
// arguments, so such properties are left out of what the model may send and out of `required`.
import { resolvePointer } from "../../json-pointer.ts";
import { mapEntries } from "./referenced-map.ts";

type Schema = Record<string, unknown>;

const NO_NAMES: ReadonlySet<string> = new Set();

/** Follows `$ref`s in the original document to the schema they name. */
function resolved(document: unknown, node: unknown, depth = 0): Schema | undefined {
  if (node === null || typeof node !== "object" || Array.isArray(node) || depth > 32) return undefined;
  const ref = (node as Schema).$ref;
  if (typeof ref === "string" && ref.startsWith("#/"))
    return resolved(document, resolvePointer(document, decodeURIComponent(ref.slice(1))), depth + 1) ?? (node as Schema);
  return node as Schema;
}

function isReadOnly(document: unknown, node: unknown): boolean {
  if (node !== null && typeof node === "object" && (node as Schema).readOnly === true) return true;
  return resolved(document, node)?.readOnly === true;
}

/** Read-only property names of a schema and its `allOf` members: a request never sends them. */
export function allOfReadOnlyNames(document: unknown, source: Schema, inherited: ReadonlySet<string>, depth = 0): Set<string> {
  const names = new Set(inherited);
  const properties = source.properties;
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
    for (const { name, value } of propertyEntries(document, properties as Schema)) if (isReadOnly(document, value)) names.add(name);
  }
  if (Array.isArray(source.allOf) && depth < 16) {
    for (const member of source.allOf) {
      const target = resolved(document, member);
      if (target) for (const name of allOfReadOnlyNames(document, target, NO_NAMES, depth + 1)) names.add(name);
    }
  }
  return names;
}

/** A `properties` map's entries, a `$ref` to a map included (referenced-map.ts); as written when it names none (the translation says why). */
function propertyEntries(document: unknown, properties: Schema): { readonly name: string; readonly value: unknown }[] {
  try {
    return mapEntries(document, "properties", properties, "");
  } catch {
    return Object.entries(properties).map(([name, value]) => ({ name, value }));
  }
}

// readOnly properties belong to responses: leave them out of what the model may send, and out
// of `required`, where OpenAPI says they only apply to responses.
export function dropReadOnly(document: unknown, source: Schema, out: Schema, inherited: ReadonlySet<string>): void {
  const readOnly = allOfReadOnlyNames(document, source, inherited);
  if (readOnly.size === 0) return;
  const properties = out.properties as Schema | undefined;
  // Where extra properties are forbidden, a removed definition would make sending the property
  // an error, which the schema as written accepts: it stays defined, only not required.
  const closed = out.additionalProperties === false || out.unevaluatedProperties === false;
  // A name read-only only through another allOf member (a base `type` marked readOnly) keeps the
  // definition this schema gives it: its assertions may be what tells a oneOf's branches apart
  // (PagerDuty's contact methods differ only by `type`'s enum), and removing them let one call
  // match every branch, so the guard refused it as ambiguous. It still leaves `required`.
  if (properties && !closed) for (const name of readOnly) if (!declaredWritable(document, source, name)) delete properties[name];
  if (Array.isArray(out.required)) {
    const required = out.required.filter((name) => !readOnly.has(name as string));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
}

/** Whether the schema itself declares `name` as a property that is not read-only. */
function declaredWritable(document: unknown, source: Schema, name: string): boolean {
  const properties = source.properties;
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return false;
  const own = propertyEntries(document, properties as Schema).find((entry) => entry.name === name);
  return own !== undefined && !isReadOnly(document, own.value);
}
