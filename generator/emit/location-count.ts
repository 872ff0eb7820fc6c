// How many argument locations a tool's schema stands for once its local `$ref`s are expanded,
// counted without expanding them. The coercion table (coercion-table.ts) visits every location,
// following properties, items, prefixItems, allOf and local `$ref`s, so ten definitions that each
// use the next ten times stand for 10^10 visits. Each schema's count is computed once and reused
// wherever a `$ref` reaches it again, so counting costs one step per schema and per edge, however
// far the references fan out (issue 32: refusing ten levels of ten took more than 90 s).
import { resolvePointer } from "../json-pointer.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";

export interface LocationCount {
  /** Locations once every local `$ref` is expanded (recursion counted once): what the coercion table visits. */
  readonly expanded: number;
  /** Locations the schema writes out, not following any `$ref`: 20,000 plain properties are 20,001. */
  readonly written: number;
  /** Schemas and edges looked at to count both: linear in the schema's size, for the tests. */
  readonly steps: number;
}

/** What one location's schema adds: its own children (new locations) and the schemas that apply at the same location. */
interface Edges {
  readonly children: readonly Schema[];
  readonly sameLocation: readonly Schema[];
}

/** Counts `root`'s locations, iteratively (a chain of thousands of `$ref`s needs no deep stack). */
export function countLocations(root: Schema): LocationCount {
  let steps = 0;
  const edgesOf = (schema: Schema, follow: boolean): Edges => {
    const children: Schema[] = [];
    if (isSchemaObject(schema.properties)) for (const child of Object.values(schema.properties)) if (isSchemaObject(child)) children.push(child);
    if (isSchemaObject(schema.items)) children.push(schema.items);
    if (Array.isArray(schema.prefixItems)) for (const child of schema.prefixItems) if (isSchemaObject(child)) children.push(child);
    const sameLocation: Schema[] = [];
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) if (isSchemaObject(branch)) sameLocation.push(branch);
    if (follow && typeof schema.$ref === "string" && schema.$ref.startsWith("#")) {
      let target: unknown;
      try {
        target = resolvePointer(root, decodeURIComponent(schema.$ref.slice(1)));
      } catch {
        target = undefined; // a broken reference is the reader's to report; it adds no location here
      }
      if (isSchemaObject(target)) sameLocation.push(target);
    }
    steps += 1 + children.length + sameLocation.length;
    return { children, sameLocation };
  };
  return { expanded: count(root, (schema) => edgesOf(schema, true)), written: count(root, (schema) => edgesOf(schema, false)), steps };
}

/**
 * A location's count is 1 plus its children's counts plus, for each schema applying at the same
 * location, that schema's count less its own 1. A schema met again while it is being counted is
 * recursion, which the coercion table stops at: it adds nothing more. Counts past 2^53 lose
 * precision and past 10^308 become Infinity, both still over any bound.
 */
function count(root: Schema, edgesOf: (schema: Schema) => Edges): number {
  const counts = new Map<Schema, number>();
  const open = new Set<Schema>();
  // `next`: how many of the frame's edges (children, then same-location schemas) are counted.
  const stack: { schema: Schema; edges: Edges; next: number }[] = [];
  const enter = (schema: Schema): void => {
    open.add(schema);
    stack.push({ schema, edges: edgesOf(schema), next: 0 });
  };
  enter(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { schema: Schema; edges: Edges; next: number };
    const { children, sameLocation } = frame.edges;
    if (frame.next < children.length + sameLocation.length) {
      const edge = (frame.next < children.length ? children[frame.next] : sameLocation[frame.next - children.length]) as Schema;
      frame.next++;
      if (!counts.has(edge) && !open.has(edge)) enter(edge);
      continue;
    }
    let total = 1;
    for (const child of frame.edges.children) total += counts.get(child) ?? 1;
    for (const same of frame.edges.sameLocation) total += (counts.get(same) ?? 1) - 1;
    counts.set(frame.schema, total);
    open.delete(frame.schema);
    stack.pop();
  }
  return counts.get(root) ?? 1;
}
