// The scalar type of a list's items, when any value of that type passes as an item: what lets a
// single value sent for the list hear "a single value goes in brackets, send [7]". Read at build
// time into the hint table's `itemType` (error-hints.ts).
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { readings } from "./union-branches.ts";

/** Keywords that leave an item schema a bare type (annotations only). */
const BARE_ITEM_KEYS: ReadonlySet<string> = new Set(["type", "description", "title", "examples", "example", "default", "$comment"]);

/**
 * The scalar type of a list's items when nothing else constrains them: `string`, or a nullable
 * `[string, null]` (3.0's `nullable: true` is read so), so a single value sent gets its brackets.
 */
function bareItemType(items: Schema): string | undefined {
  if (!Object.keys(items).every((key) => BARE_ITEM_KEYS.has(key) || key === "nullable")) return undefined;
  const types = typeof items.type === "string" ? [items.type] : Array.isArray(items.type) ? items.type : [];
  const scalars = types.filter((type) => type !== "null");
  const scalar = scalars.length === 1 ? scalars[0] : undefined;
  return typeof scalar === "string" && ["string", "number", "integer", "boolean"].includes(scalar) ? scalar : undefined;
}

/** Keywords beside a union of items that leave it the union (annotations only). */
const UNION_ITEM_KEYS: ReadonlySet<string> = new Set(["anyOf", "oneOf", "description", "title", "examples", "example", "default", "$comment"]);

/**
 * `bareItemType`, or for items that are a union with one bare scalar branch (Notion's title
 * items: `anyOf: [{$ref: richTextRequest}, {type: string}, {type: object}]`, the `$ref` read
 * through), that branch's type: any value of it passes. Under `oneOf` only when no other branch
 * could take a value of that type too.
 */
export function itemTypeOf(items: Schema, root: unknown): string | undefined {
  const bare = bareItemType(items);
  if (bare !== undefined || !Object.keys(items).every((key) => UNION_ITEM_KEYS.has(key))) return bare;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = items[keyword];
    if (!Array.isArray(branches) || !branches.every(isSchemaObject)) continue;
    const views = branches.map((branch) => readings(branch, root));
    const types = views.map((all) =>
      all.slice(0, -1).every((view) => Object.keys(view).every((key) => key === "$ref" || BARE_ITEM_KEYS.has(key)))
        ? bareItemType(all[all.length - 1] as Schema)
        : undefined,
    );
    const found = [...new Set(types.filter((type) => type !== undefined))];
    const type = found.length === 1 ? found[0] : undefined;
    if (type === undefined || keyword === "anyOf") return type;
    const others = views.filter((_all, index) => types[index] !== type);
    if (types.filter((each) => each === type).length > 1 || others.some((all) => mayTake(all, type))) return undefined;
    return type;
  }
  return undefined;
}

/** Whether a branch (its readings) could take a value of the JSON `type`: it states no type, or one that includes it. */
function mayTake(all: readonly Schema[], type: string): boolean {
  const stated = all.toReversed().find((view) => view.type !== undefined)?.type;
  if (stated === undefined) return true;
  const types = Array.isArray(stated) ? stated : [stated];
  return types.includes(type) || (type === "integer" && types.includes("number")) || (type === "number" && types.includes("integer"));
}
