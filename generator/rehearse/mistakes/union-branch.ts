// The branch of a union that a valid call's value belongs to, when the schema and the value alone
// decide it: the mistake generator (classes.ts) goes into that branch as into any other value.
import { typeOf } from "../../../templates/runtime/explain/text.ts";
import { closed, deref, isSchema, propertiesOf, requiredOf, type Schema, typesOf } from "./schema-view.ts";

/**
 * The one branch of a union that `value` belongs to, when the schema and the value alone decide
 * it; else undefined. A branch is a candidate when it names the value's JSON type; of several
 * object branches, the one that declares every key sent and holds every key it requires, while
 * each other one lacks a key it requires or (closed) does not declare one sent. Branches that are
 * unions themselves, or name no type, leave the choice open: the mistake could then be read
 * against another branch, and its fix would not be determined.
 */
export function unionBranch(union: Schema, value: unknown, root: Schema): Schema | undefined {
  const list = (union.anyOf ?? union.oneOf) as unknown;
  if (!Array.isArray(list)) return undefined;
  const branches: Schema[] = [];
  for (const branch of list) {
    const view = deref(branch, root);
    if (view === undefined || view.anyOf !== undefined || view.oneOf !== undefined || view.allOf !== undefined || typesOf(view).length === 0) return undefined;
    branches.push(view);
  }
  const type = typeOf(value);
  const fits = branches.filter((branch) => typesOf(branch).some((named) => named === type || (named === "number" && type === "integer")));
  if (fits.length === 1) return fits[0];
  if (type !== "object" || !isSchema(value)) return undefined;
  const keys = Object.keys(value);
  const holds = (branch: Schema): boolean =>
    requiredOf(branch).every((key) => Object.hasOwn(value, key)) && keys.every((key) => Object.hasOwn(propertiesOf(branch), key));
  const excludes = (branch: Schema): boolean =>
    requiredOf(branch).some((key) => !Object.hasOwn(value, key)) || (closed(branch) && keys.some((key) => !Object.hasOwn(propertiesOf(branch), key)));
  const holding = fits.filter(holds);
  return holding.length === 1 && fits.every((branch) => branch === holding[0] || excludes(branch)) ? holding[0] : undefined;
}
