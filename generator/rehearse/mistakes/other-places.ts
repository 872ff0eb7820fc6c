// "list item's fields sent flat" moves a list of one object's fields beside the list. It makes
// no case where another list or object beside it could take those fields and holds none of them
// yet (GrowthBook's `startActions` and `endActions`; Prefect's three lists of actions): the call
// sent could mean either, and no envelope could tell which. One whose item holds one of them
// already (Kavita's eleven lists of people, each sent with its person) is not a place for them,
// as the explainer reads it (templates/runtime/explain/rules/unknown-field.ts).
import { deref, isSchema, propertiesOf, type Schema } from "./schema-view.ts";

export interface FlatItem {
  /** The object holding the list. */
  readonly parent: Schema;
  /** The list's name. */
  readonly list: string;
  /** The item's fields, sent flat. */
  readonly keys: readonly string[];
  /** The valid call's value of the object holding the list. */
  readonly sent: unknown;
}

/** Whether another property of the holder declares the item's fields and its value holds none of them. */
export function placeElsewhere(item: FlatItem, root: Schema): boolean {
  const { parent, list, keys, sent } = item;
  return Object.entries(propertiesOf(parent)).some(([name, other]) => {
    if (name === list || !declares(other, keys[0] as string, root)) return false;
    const held = isSchema(sent) ? sent[name] : undefined;
    const inside = Array.isArray(held) ? held[0] : held;
    return !isSchema(inside) || keys.every((key) => !Object.hasOwn(inside, key));
  });
}

/**
 * Whether an object schema, or a list's item schema, declares `name`: through a union's branches
 * too (Prefect's action union; a list that may be null, `anyOf: [{type: array}, {type: null}]`).
 */
function declares(schema: unknown, name: string, root: Schema, depth = 0): boolean {
  const node = deref(schema, root);
  if (node === undefined || depth > 4) return false;
  if (node.items !== undefined && declares(node.items, name, root, depth + 1)) return true;
  if (Object.hasOwn(propertiesOf(node), name)) return true;
  return (["anyOf", "oneOf"] as const).some(
    (keyword) => Array.isArray(node[keyword]) && (node[keyword] as unknown[]).some((branch) => declares(branch, name, root, depth + 1)),
  );
}

/** The value of `root` at `tokens`, undefined where there is none. */
export function valueAtTokens(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const token of tokens) node = isSchema(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
  return node;
}
