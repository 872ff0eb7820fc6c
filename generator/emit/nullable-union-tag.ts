// The tag of a union of objects that may also be `null` (pydantic's `Optional[Union[A, B]]`:
// `anyOf: [A, B, {type: null}]`). union-branches.ts reads a tag only where every branch is an
// object, so such a union named no member and a misspelt field of one was reported only at the
// union, with the types it accepts (`null`). The tag is read over the object branches; a `null`
// branch selects by no value, so the branch numbers stay those of the schema.
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type Discriminator, discriminatorOf } from "./union-branches.ts";

/** A branch that is `null` and nothing else: `{type: "null"}` with annotations at most. */
export function nullOnly(branch: Schema): boolean {
  return branch.type === "null" && !("properties" in branch) && !("items" in branch);
}

export function unionTagOf(branches: readonly Schema[], root: unknown): Discriminator | undefined {
  if (!branches.every(isSchemaObject)) return undefined;
  if (!branches.some(nullOnly)) return discriminatorOf(branches, root);
  const objects = branches.filter((branch) => !nullOnly(branch));
  const tag = objects.length >= 2 ? discriminatorOf(objects, root) : undefined;
  if (tag === undefined) return undefined;
  let next = 0;
  return {
    property: tag.property,
    branches: branches.map((branch) => (nullOnly(branch) ? { values: [] } : (tag.branches[next++] as Discriminator["branches"][number]))),
  };
}
