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
      const ref = isSchemaObject(property) && typeof property.$ref === "string" && property.$ref.startsWith("#/") ? property.$ref : undefined;
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
