// Inheritance written both ways round: springdoc (Komga's `SearchOperatorBoolean`) writes a Java
// superclass as a discriminated `oneOf` of its subclasses, and each subclass as an `allOf` of the
// superclass. Read literally that is a cycle with no progress: a subclass must match the union,
// which must match exactly one subclass, which must match the union... ajv's validator recursed
// until the stack ran out on every call, so no call could be checked. What the writer means by the
// subclass's `allOf` member is the superclass's own fields, not a second pick of a subclass: such a
// member is read as the union's base, the union without its `oneOf`/`anyOf` and `discriminator`.
// Only a member that names a union listing the schema it appears in is read so; any other `$ref`
// is imported as written. Nothing valid is refused that was accepted: as written, no call passed.
import { resolvePointer } from "../../json-pointer.ts";

type Schema = Record<string, unknown>;

const DISPATCH = new Set(["oneOf", "anyOf", "discriminator"]);

/**
 * The pointer of the discriminated union that `member` (an `allOf` member of the schema at
 * `own`) names and that lists `own` among its branches; `undefined` for any other member.
 */
export function unionBackReference(document: unknown, member: unknown, own: string, pointerOf: (ref: string) => string): string | undefined {
  if (member === null || typeof member !== "object" || Array.isArray(member)) return undefined;
  const ref = (member as Schema).$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  const target = pointerOf(ref);
  const union = resolvePointer(document, target) as Schema | undefined;
  if (union === null || typeof union !== "object" || union.discriminator === undefined) return undefined;
  const branches = [union.oneOf, union.anyOf].filter(Array.isArray).flat() as unknown[];
  const listsOwn = branches.some((branch) => {
    const branchRef = branch !== null && typeof branch === "object" ? (branch as Schema).$ref : undefined;
    return typeof branchRef === "string" && branchRef.startsWith("#/") && pointerOf(branchRef) === own;
  });
  return listsOwn ? target : undefined;
}

/** The union's base: its own fields and assertions, without the pick of a branch. */
export function unionBase(union: Schema): Schema {
  return Object.fromEntries(Object.entries(union).filter(([key]) => !DISPATCH.has(key)));
}
