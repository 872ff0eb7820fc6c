// What a tool's schema says about secrets, found once per tool: its `writeOnly` locations, and
// whether its arguments can hold only the schema's own (non-secret) keys.
import type { JsonSchema } from "../contract/tool-spec.ts";
import { escapeToken, localRefTarget } from "../json/json-pointer.ts";

/**
 * The JSON Pointers (`*` for any array index or property) of the schema's `writeOnly`
 * properties. Every applicator is followed, `anyOf`/`oneOf`/conditionals included: for secrets,
 * a location that may be write-only is treated as write-only.
 */
export function writeOnlyPointers(root: JsonSchema): string[] {
  const found = new Set<string>();
  let visits = 0;
  const visit = (schema: unknown, at: string, seen: ReadonlySet<string>): void => {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema) || ++visits > 20_000) return;
    const node = schema as Record<string, unknown>;
    if (node.writeOnly === true && at !== "") found.add(at);
    const ref = typeof node.$ref === "string" && node.$ref.startsWith("#") ? node.$ref : undefined;
    if (ref && !seen.has(ref)) visit(localRefTarget(root, ref), at, new Set([...seen, ref]));
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = node[key];
      if (Array.isArray(list)) for (const branch of list) visit(branch, at, seen);
    }
    for (const key of ["if", "then", "else", "not"]) visit(node[key], at, seen);
    if (node.properties && typeof node.properties === "object") {
      for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) visit(child, `${at}/${escapeToken(name)}`, seen);
    }
    for (const key of ["additionalProperties", "items", "additionalItems", "unevaluatedProperties", "unevaluatedItems"]) visit(node[key], `${at}/*`, seen);
    if (node.patternProperties && typeof node.patternProperties === "object")
      for (const child of Object.values(node.patternProperties as object)) visit(child, `${at}/*`, seen);
    if (Array.isArray(node.prefixItems)) for (const [index, child] of node.prefixItems.entries()) visit(child, `${at}/${index}`, seen);
  };
  visit(root, "", new Set());
  return [...found].sort();
}

/** Keywords that say nothing about which keys an instance may have: beside a `$ref`, they leave it the whole schema. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["$ref", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly"]);

/**
 * Whether every object location of the schema is closed and names no secret property. A local
 * `$ref` standing alone (annotations aside) is followed; one already being followed further up
 * counts as closed, since its own checks decide (a recursive schema of closed objects is closed).
 */
export function closedWithoutSecretNames(root: JsonSchema, isSecretName: (key: string) => boolean): boolean {
  let visits = 0;
  const following = new Set<string>();
  const typesOf = (node: Record<string, unknown>): readonly unknown[] | undefined =>
    typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  const followed = (ref: string, node: Record<string, unknown>): boolean => {
    if (!ref.startsWith("#") || Object.keys(node).some((key) => !ANNOTATIONS.has(key))) return false;
    if (following.has(ref)) return true;
    following.add(ref);
    const result = closed(localRefTarget(root, ref));
    following.delete(ref);
    return result;
  };
  // A location that cannot hold an object or an array needs no closing (`{type: "string"}`).
  const closed = (schema: unknown): boolean => {
    if (++visits > 20_000) return false;
    if (typeof schema === "boolean") return !schema;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
    const node = schema as Record<string, unknown>;
    if (typeof node.$ref === "string") return followed(node.$ref, node);
    const types = typesOf(node);
    if (types && !types.includes("object") && !types.includes("array")) return true;
    if (node.$ref !== undefined || node.$dynamicRef !== undefined || node.patternProperties !== undefined) return false;
    const mayBeObject = types === undefined || types.includes("object");
    if (mayBeObject && node.additionalProperties !== false && node.unevaluatedProperties !== false) return false;
    if (node.properties && typeof node.properties === "object") {
      for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) if (isSecretName(name) || !closed(child)) return false;
    }
    for (const key of ["items", "additionalItems", "unevaluatedItems", "contains", "not", "if", "then", "else"])
      if (node[key] !== undefined && !closed(node[key])) return false;
    for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
      const list = node[key];
      if (Array.isArray(list) && !list.every(closed)) return false;
    }
    return true;
  };
  return closed(root);
}

/** Schema nodes `declaredKeysAreSafe` reads at most; past it, it answers false (a scan is never wrong). */
const MAX_NODES = 100_000;

/**
 * Whether a text that holds only keys the schema declares (`keysDeclared`, declared-keys.ts)
 * can hold no secret: no property name the schema declares anywhere is secret, and every
 * redacted location (`pointers`, as token lists) needs a key no such text has (a token that is
 * neither `*`, nor an array index, nor a declared name). Every `properties` member of every node
 * counts, whatever keyword it sits under: more names than the walk declares only make it false.
 */
export function declaredKeysAreSafe(root: JsonSchema, isSecretName: (key: string) => boolean, pointers: readonly (readonly string[])[]): boolean {
  const names = new Set<string>();
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    if (seen.add(node).size > MAX_NODES) return false;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    const properties = (node as Record<string, unknown>).properties;
    if (properties !== null && typeof properties === "object" && !Array.isArray(properties))
      for (const name of Object.keys(properties)) {
        if (isSecretName(name)) return false;
        names.add(name);
      }
    for (const key of Object.keys(node)) pending.push((node as Record<string, unknown>)[key]);
  }
  return pointers.every((tokens) => tokens.some((token) => token !== "*" && !/^[0-9]+$/.test(token) && !names.has(token)));
}
