// Which objects hold a schema as a property, for the messages that look beside an object for a
// field sent one level too high (error-hints.ts). A definition's errors are reported at the
// definition, so its holders are the objects whose properties `$ref` it: directly, or through a
// union's branch (pydantic's optional model, `anyOf: [{$ref: TaskWorkerFilter}, {type: null}]`,
// Prefect's `task_worker_filter`), as an inline union's branch is held by the property's object.
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { propertiesOf } from "./move-table.ts";

/** Per local `$ref` target (`#/$defs/X`), every object with a property that refers to it. */
export function referrersOf(schemas: ReadonlyMap<string, Schema>): Map<string, Schema[]> {
  const referrers = new Map<string, Schema[]>();
  for (const schema of schemas.values()) {
    if (!isSchemaObject(schema.properties)) continue;
    for (const property of Object.values(schema.properties)) {
      for (const ref of refsOf(property)) {
        const holders = referrers.get(ref) ?? [];
        if (!holders.includes(schema)) holders.push(schema);
        referrers.set(ref, holders);
      }
    }
  }
  return referrers;
}

/** The local targets a property refers to: its own `$ref`, or its union branches' `$ref`s. */
function refsOf(property: unknown): string[] {
  if (!isSchemaObject(property)) return [];
  const own = localRef(property);
  if (own !== undefined) return [own];
  const refs: string[] = [];
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = property[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const ref = isSchemaObject(branch) ? localRef(branch) : undefined;
      if (ref !== undefined && !refs.includes(ref)) refs.push(ref);
    }
  }
  return refs;
}

function localRef(schema: Schema): string | undefined {
  return typeof schema.$ref === "string" && schema.$ref.startsWith("#/") ? schema.$ref : undefined;
}

/**
 * Of `names`, those no holder declares (each holder read as the move table reads objects), in
 * order; empty without holders. Such a name, sent beside the object instead of in it, belongs in it.
 */
export function undeclaredAbove(names: readonly string[], holders: readonly Schema[] | undefined, root: unknown): string[] {
  const above = holders?.map((holder) => propertiesOf(holder, root));
  if (above === undefined || above.length === 0) return [];
  return names.filter((name) => above.every((declared) => declared !== undefined && !Object.hasOwn(declared, name)));
}
