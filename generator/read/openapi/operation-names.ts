// Names for operations whose operationIds are unique only per tag (Deepgram's Fern-written
// description: `list`, `get`, `create` under each of its tags, 40 of its 50 operations). OpenAPI
// requires an operationId to be unique in a document; toolguard still makes every such operation
// a tool, named deterministically, and says so: each operation of a name that several share is
// qualified by its first tag when the tags tell them apart. An operation whose name no other
// shares keeps it. Where the tags do not tell them apart the clash stands (the first keeps the
// name, the rest are skipped naming it): that is gRPC-gateway's extra routes of one RPC (121 of
// Temporal's 226 operations), aliases a model gains nothing from, whose tool keeps its name.
// Names that differ only where the generated package cannot tell them apart (Halo's `DeleteMenu`
// and `deleteMenu`: one file, one export) are shared names too.
import { emittedNames } from "../../emit/names.ts";
import { toolName } from "./tool-name.ts";

/** What names one operation: where it is, its operationId, its tags, its method and path. */
export interface NamedOperation {
  readonly pointer: string;
  readonly operationId: unknown;
  readonly tags: unknown;
  readonly method: string;
  readonly path: string;
}

/** A shared name's replacement for one operation, and the generation warning that names it. */
export interface QualifiedName {
  readonly name: string;
  readonly warning: string;
}

/** Per operation pointer, the name replacing one that several operations share. */
export function qualifiedNames(operations: readonly NamedOperation[]): Map<string, QualifiedName> {
  const out = new Map<string, QualifiedName>();
  const nameOf = (operation: NamedOperation) => toolName(operation.operationId, operation.method, operation.path);
  // Operations of one name first, as they always were named.
  const same = new Map<string, NamedOperation[]>();
  for (const operation of operations) {
    const name = nameOf(operation);
    const group = same.get(name);
    if (group === undefined) same.set(name, [operation]);
    else group.push(operation);
  }
  for (const group of same.values()) qualify(group, group.map(nameOf), out);
  // Then names that differ only where the package cannot tell them apart (`DeleteMenu`,
  // `deleteMenu`), among the names the first pass left: a group holding a name it qualified, or
  // only one name, stands as it is.
  const current = (operation: NamedOperation) => out.get(operation.pointer)?.name ?? nameOf(operation);
  for (const group of sharingGroups(operations, current)) {
    const names = group.map(current);
    if (new Set(names).size < 2 || group.some((operation) => out.has(operation.pointer))) continue;
    qualify(group, names, out);
  }
  return out;
}

/** Qualifies each operation of `group` (whose names are `names`) by its first tag, when the tags tell them apart. */
function qualify(group: readonly NamedOperation[], names: readonly string[], out: Map<string, QualifiedName>): void {
  if (group.length < 2) return;
  const byTag = group.map((operation, index) => {
    const tag = firstTag(operation.tags);
    return tag === undefined ? undefined : toolName(`${tag}_${names[index]}`, operation.method, operation.path);
  });
  // Nothing tells them apart by tag: the clash is reported as it always was.
  if (!distinct(byTag)) return;
  const shared = new Set(names).size === 1 ? undefined : sharedKind(names);
  const would =
    shared === undefined
      ? `would be tool "${names[0]}" (OpenAPI requires an operationId to be unique in a document)`
      : `would be tools ${[...new Set(names)].map((name) => JSON.stringify(name)).join(" and ")}, one ${shared} in the generated package`;
  group.forEach((operation, index) => {
    const qualified = byTag[index] as string;
    const by = `its first tag, ${JSON.stringify(firstTag(operation.tags))}`;
    out.set(operation.pointer, {
      name: qualified,
      warning: `operation ${operation.method.toUpperCase()} ${operation.path} is named "${qualified}", by ${by}: ${group.length} operations of the document ${would}`,
    });
  });
}

/**
 * The operations in groups of those whose names give the generated package one name of some kind
 * (emittedNames: the tool name, or only its export, file or type name, as `createComment` and
 * `CreateComment` do), in document order.
 */
function sharingGroups(operations: readonly NamedOperation[], nameOf: (operation: NamedOperation) => string): NamedOperation[][] {
  const parent = operations.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    return root;
  };
  const owner = new Map<string, number>();
  operations.forEach((operation, index) => {
    for (const [, key] of emittedNames(nameOf(operation))) {
      const other = owner.get(key);
      if (other === undefined) owner.set(key, index);
      else parent[find(index)] = find(other);
    }
  });
  const groups = new Map<number, NamedOperation[]>();
  operations.forEach((operation, index) => {
    const root = find(index);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [operation]);
    else group.push(operation);
  });
  return [...groups.values()];
}

/** Of the names several operations would have, the kind of generated name two of them share. */
function sharedKind(names: readonly string[]): string {
  const seen = new Map<string, string>();
  for (const name of names)
    for (const [kind, key] of emittedNames(name)) {
      const before = seen.get(key);
      if (before !== undefined && before !== name) return kind;
      seen.set(key, name);
    }
  return "name";
}

function firstTag(tags: unknown): string | undefined {
  const tag = Array.isArray(tags) ? tags[0] : undefined;
  return typeof tag === "string" && tag.trim() !== "" ? tag : undefined;
}

/** Whether every name is given and no two give the generated package one name of any kind. */
function distinct(names: readonly (string | undefined)[]): boolean {
  if (!names.every((name) => name !== undefined)) return false;
  const keys = names.flatMap((name) => emittedNames(name as string).map(([, key]) => key));
  return new Set(keys).size === keys.length;
}
