// A nullable union: `anyOf: [S, {type: "null"}]` (or `oneOf`), how pydantic and OpenAPI 3.1
// generators write `Optional[S]` (Mistral's `handoffs: Optional[List[str]]`, a wrapper object or
// null). For what a value of the wrong type means (a single value for a list, a text for a
// wrapper) it reads as S, as `type: [array, null]` does (error-hints.ts). A union of one branch,
// `anyOf: [S]`, reads as S the same way: zod-to-OpenAPI writes an optional object so (GrowthBook's
// `managedBy: {anyOf: [{type: object, ...}]}`), and its one branch is all it takes.
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { readings, typesOf } from "./union-branches.ts";

/**
 * S of a two-branch union whose other branch takes only null, or of a union of S alone, `$ref`s
 * followed; undefined otherwise.
 */
export function nullableBranchOf(schema: Schema, root: unknown): Schema | undefined {
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length > 2 || branches.length === 0 || !branches.every(isSchemaObject)) continue;
    const views = branches.map((branch) => readings(branch, root).at(-1) as Schema);
    const nulls = views.filter((view) => typesOf(view)?.every((type) => type === "null") === true);
    if (nulls.length !== views.length - 1) return undefined;
    const other = views.find((view) => !nulls.includes(view)) as Schema;
    return typesOf(other)?.includes("null") === false ? other : undefined;
  }
  return undefined;
}
