// 3.0's `nullable: true`, which 3.1 and 2020-12 write as `null` among the types.
import { typesOf } from "./declared-types.ts";
import { APPLICATORS, KEPT_ANNOTATIONS } from "./schema-keywords.ts";

type Schema = Record<string, unknown>;

const ANNOTATION_KEYS = new Set([...KEPT_ANNOTATIONS, "examples"]);

/** 3.0's `nullable: true`: null is allowed beside whatever the schema already allows. */
export function allowNull(out: Schema): Schema {
  const types = typesOf(out.type);
  const hasApplicator = APPLICATORS.some((key) => out[key] !== undefined);
  if (!hasApplicator && types.length > 0) {
    if (!types.includes("null")) out.type = [...types, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (!hasApplicator && Array.isArray(out.enum)) {
    if (!out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (!hasApplicator) return out; // no type: null is already allowed
  const wrapped: Schema = {};
  const assertions: Schema = {};
  for (const [key, value] of Object.entries(out)) (ANNOTATION_KEYS.has(key) ? wrapped : assertions)[key] = value;
  wrapped.anyOf = [assertions, { type: "null" }];
  return wrapped;
}
