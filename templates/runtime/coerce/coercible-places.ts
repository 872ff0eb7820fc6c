// Whether a document holds a string at a place the coercion plan names: the only case in which
// applying the plan can change it, because every coercion reads a string. A valid call sends
// numbers and booleans where the schema wants them, so its coercion step ends here: one visit of
// the places the plan names, shared prefixes visited once, nothing allocated. Applying the plan
// pattern by pattern instead (`applyCoercions`) cost 0.17x of the floor on GitHub's
// issues/create and 1.5x on repos/create-for-authenticated-user, whose twelve patterns each
// started again at the root, building each step's pointer on the way.
import type { CoercionPlan } from "./coerce.ts";

/** The plan's places as a tree: a key's subtree, the items' subtree (`*`), and whether a place ends here. */
export interface PlaceTree {
  readonly keys: string[];
  readonly subtrees: PlaceTree[];
  items: PlaceTree | undefined;
  end: boolean;
}

/** The tree of `plan`'s places, made once per bound tool; undefined for a plan with none. */
export function placeTree(plan: CoercionPlan): PlaceTree | undefined {
  if (plan.length === 0) return undefined;
  const root = node();
  for (const { tokens } of plan) {
    let at = root;
    for (const token of tokens) {
      // `*` is any item of an array, as `applyCoercions` reads it.
      if (token === "*") at = at.items ??= node();
      else {
        const index = at.keys.indexOf(token);
        if (index !== -1) at = at.subtrees[index] as PlaceTree;
        else {
          const next = node();
          at.keys.push(token);
          at.subtrees.push(next);
          at = next;
        }
      }
    }
    at.end = true;
  }
  return root;
}

function node(): PlaceTree {
  return { keys: [], subtrees: [], items: undefined, end: false };
}

/**
 * Whether `value` holds a string at one of `tree`'s places. True does not mean a coercion
 * applies (the allowlist decides that); false means none can.
 */
export function holdsCoercible(value: unknown, tree: PlaceTree): boolean {
  if (value === null || typeof value !== "object") return false;
  const { keys, subtrees, items } = tree;
  for (let index = 0; index < keys.length; index++) {
    // An inherited property (`constructor`) reads as a function or Object.prototype, which holds
    // no string: no own-property check is needed for the answer to stay exact.
    const child: unknown = (value as Record<string, unknown>)[keys[index] as string];
    const subtree = subtrees[index] as PlaceTree;
    if (typeof child === "string" ? subtree.end : holdsCoercible(child, subtree)) return true;
  }
  if (items === undefined || !Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (typeof item === "string" ? items.end : holdsCoercible(item, items)) return true;
  }
  return false;
}
