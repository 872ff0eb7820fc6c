// Where a definition of listed values is used: the property locations that `$ref` it, on its
// hint, so the explainer finds a use's sibling fields by the place in the tool's schema.
import { isSchemaObject, schemaPathToken, type Schema } from "../schema-walk.ts";
import type { MutableHint } from "./error-hints.ts";

/**
 * A definition of listed values reports its errors at its own location, which names no field:
 * the property locations that `$ref` it let the explainer find each use's siblings (a value sent
 * to `direction` that only `sort` allows, both `$ref`s to enums) by the place in the tool's schema.
 */
export function referredAt(schemas: ReadonlyMap<string, Schema>, hints: ReadonlyMap<string, MutableHint>): void {
  // Gathered, then set once: a definition many properties use is not copied once per use.
  const uses = new Map<MutableHint, string[]>();
  for (const [location, schema] of schemas) {
    if (!isSchemaObject(schema.properties)) continue;
    for (const [name, property] of Object.entries(schema.properties)) {
      const ref = referenceOf(property);
      const target = ref === undefined ? undefined : hints.get(ref);
      if (target === undefined || (target.allowed === undefined && target.nearMisses === undefined)) continue;
      const list = uses.get(target);
      const at = `${location}/properties/${schemaPathToken(name)}`;
      if (list === undefined) uses.set(target, [at]);
      else list.push(at);
    }
  }
  for (const [target, list] of uses) target.referredAt = list;
}

/**
 * The local `$ref` a property's value is: the property's own, or the one branch of an `anyOf` /
 * `oneOf` whose other branches only take null (Pydantic's `Optional[ManagerType]`:
 * `anyOf: [{$ref: ManagerType}, {type: "null"}]`, Letta's every optional enum).
 */
export function referenceOf(property: unknown): string | undefined {
  if (!isSchemaObject(property)) return undefined;
  if (typeof property.$ref === "string") return property.$ref.startsWith("#/") ? property.$ref : undefined;
  const branches = Array.isArray(property.anyOf) ? property.anyOf : Array.isArray(property.oneOf) ? property.oneOf : undefined;
  if (branches === undefined) return undefined;
  const refs = branches.filter((branch) => !onlyNull(branch));
  return refs.length === 1 && branches.length > 1 && isSchemaObject(refs[0]) && Object.keys(refs[0]).length === 1 ? referenceOf(refs[0]) : undefined;
}

function onlyNull(schema: unknown): boolean {
  return (
    isSchemaObject(schema) &&
    Object.keys(schema).length === 1 &&
    (schema.type === "null" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null"))
  );
}
