// Arrays: the item schema (compared under `*`), tuple positions (under their index), and the
// keywords about what an array must contain. Counts and uniqueness are bounds (compare-bounds.ts).
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type At, below, type CompareContext, report, where } from "./compare-context.ts";
import { canonical } from "./schema-view.ts";

/** Item schemas (under `*`), tuple positions (under their index), `contains` and `unevaluatedItems`. */
export function compareArrays(ctx: CompareContext, a: Schema, b: Schema, at: At): void {
  const oldTuple = tupleOf(a);
  const newTuple = tupleOf(b);
  if (oldTuple && newTuple) {
    const shared = Math.min(oldTuple.items.length, newTuple.items.length);
    for (let index = 0; index < shared; index++) {
      ctx.compare(oldTuple.items[index], newTuple.items[index], below(at, String(index), `${oldTuple.keyword}/${index}`, `${newTuple.keyword}/${index}`));
    }
    if (oldTuple.items.length !== newTuple.items.length) {
      report(ctx, at, {
        keyword: newTuple.keyword,
        toolTeams: "breaking",
        models: "possibly",
        message: `${where(at.path)}: the tuple now describes ${newTuple.items.length} positions instead of ${oldTuple.items.length}`,
      });
    }
  } else if (oldTuple || newTuple) {
    report(ctx, at, {
      keyword: (newTuple ?? oldTuple)?.keyword ?? "items",
      inOld: !newTuple,
      toolTeams: "breaking",
      models: "possibly",
      message: `${where(at.path)}: ${newTuple ? "became a tuple" : "is no longer a tuple"}`,
    });
  }
  // The schema of every item (2020-12 `items`, draft-07's single-schema `items`), or of the items
  // after a tuple's positions.
  const oldItems = restItems(a);
  const newItems = restItems(b);
  if (oldItems && newItems) {
    ctx.compare(oldItems.schema, newItems.schema, below(at, "*", oldItems.keyword, newItems.keyword));
  } else if (oldItems || newItems) {
    const gained = newItems !== undefined;
    report(ctx, at, {
      keyword: (newItems ?? oldItems)?.keyword ?? "items",
      inOld: !gained,
      toolTeams: "possibly",
      models: gained ? "breaking" : "none",
      message: gained
        ? `${where(at.path)}: its items now have a schema; items that passed may now fail`
        : `${where(at.path)}: its items are no longer checked; the model may now send any items`,
    });
  }
  for (const keyword of ["contains", "unevaluatedItems"]) {
    if (canonical(a[keyword]) === canonical(b[keyword])) continue;
    report(ctx, at, {
      keyword,
      inOld: !(keyword in b),
      toolTeams: "none",
      models: keyword in b ? "possibly" : "none",
      message: `${where(at.path)}: ${keyword} changed; arrays that passed may now fail`,
    });
  }
}

function tupleOf(schema: Schema): { readonly keyword: string; readonly items: readonly unknown[] } | undefined {
  if (Array.isArray(schema.prefixItems)) return { keyword: "prefixItems", items: schema.prefixItems };
  if (Array.isArray(schema.items)) return { keyword: "items", items: schema.items };
  return undefined;
}

function restItems(schema: Schema): { readonly keyword: string; readonly schema: unknown } | undefined {
  const keyword = Array.isArray(schema.items) ? "additionalItems" : "items";
  const value = schema[keyword];
  if (value === undefined || value === true || (isSchemaObject(value) && Object.keys(value).length === 0)) return undefined;
  return { keyword, schema: value };
}
