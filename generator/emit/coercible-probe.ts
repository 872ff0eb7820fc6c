// The coercion step's first look, written per tool (contract/tool-spec.ts `HazardWalk.coercible`):
// whether a string sits at any place of the tool's coercion table, the only case in which a
// coercion can apply. A valid call sends numbers and booleans there, so its coercion step ends
// after this look. The runtime has the same look over a tree of the plan's places
// (coerce/coercible-places.ts, used by hand-written specs and as its twin in the tests); its keys
// are read by variable, which cost 0.3x of the floor on a body of twelve boolean places, where
// the printed reads by name cost a few nanoseconds each.
import type { CoercionTable } from "../../templates/runtime/contract/tool-spec.ts";
import { planCoercions } from "../../templates/runtime/coerce/coerce.ts";
import { placeTree, type PlaceTree } from "../../templates/runtime/coerce/coercible-places.ts";
import { Code, isSafeIdentifier, literal } from "../safe-emit.ts";

/** Places nested deeper than this are left to the runtime's tree: printed blocks stay shallow. */
const MAX_NESTING = 16;

/** The probe of `table`'s places, or undefined when the table has none (or nests too deep to print). */
export function coercibleProbe(table: CoercionTable): Code | undefined {
  const tree = placeTree(planCoercions(table));
  if (tree === undefined || height(tree) > MAX_NESTING) return undefined;
  const names = { next: 0 };
  return new Code(
    [
      "(value) => {",
      "      // True when a string sits at a place of `coercions`: only then can the coercion step change the value.",
      '      if (typeof value !== "object" || value === null) return false;',
      ...nodeCode(tree, "value", names).map((line) => `      ${line}`),
      "      return false;",
      "    }",
    ].join("\n"),
  );
}

function height(tree: PlaceTree): number {
  let deepest = 0;
  for (const subtree of tree.subtrees) deepest = Math.max(deepest, height(subtree));
  if (tree.items) deepest = Math.max(deepest, height(tree.items));
  return 1 + deepest;
}

/** Statements for the places under `name`, a non-null object (an array included, as `applyCoercions` reads it). */
function nodeCode(tree: PlaceTree, name: string, names: { next: number }): string[] {
  const lines: string[] = [];
  tree.keys.forEach((key, index) => {
    const access = isSafeIdentifier(key) ? `${name}.${key}` : `${name}[${literal(key).text}]`;
    lines.push(...childCode(tree.subtrees[index] as PlaceTree, access, names));
  });
  if (tree.items !== undefined) {
    const index = `i${names.next++}`;
    lines.push(
      `if (Array.isArray(${name})) {`,
      `  for (let ${index} = 0; ${index} < ${name}.length; ${index}++) {`,
      ...childCode(tree.items, `${name}[${index}]`, names).map((line) => `    ${line}`),
      "  }",
      "}",
    );
  }
  return lines;
}

/** Statements for one child read by `access`: a string at a place ends the look; an object is looked into. */
function childCode(subtree: PlaceTree, access: string, names: { next: number }): string[] {
  const inner = subtree.keys.length > 0 || subtree.items !== undefined;
  if (!inner) return [`if (typeof ${access} === "string") return true;`];
  const x = `x${names.next++}`;
  return [
    `const ${x} = ${access};`,
    ...(subtree.end ? [`if (typeof ${x} === "string") return true;`] : []),
    `if (typeof ${x} === "object" && ${x} !== null) {`,
    ...nodeCode(subtree, x, names).map((line) => `  ${line}`),
    "}",
  ];
}
