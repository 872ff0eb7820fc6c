// Names for operations whose operationIds are unique only per tag (Deepgram's Fern-written
// description: `list`, `get`, `create` under each of its tags, 40 of its 50 operations). OpenAPI
// requires an operationId to be unique in a document; toolguard still makes every such operation
// a tool, named deterministically, and says so: each operation of a name that several share is
// qualified by its first tag when the tags tell them apart. An operation whose name no other
// shares keeps it. Where the tags do not tell them apart the clash stands (the first keeps the
// name, the rest are skipped naming it): that is gRPC-gateway's extra routes of one RPC (121 of
// Temporal's 226 operations), aliases a model gains nothing from, whose tool keeps its name.
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
  const groups = new Map<string, NamedOperation[]>();
  for (const operation of operations) {
    const name = toolName(operation.operationId, operation.method, operation.path);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [operation]);
    else group.push(operation);
  }
  const out = new Map<string, QualifiedName>();
  for (const [name, group] of groups) {
    if (group.length < 2) continue;
    const byTag = group.map((operation) => {
      const tag = firstTag(operation.tags);
      return tag === undefined ? undefined : toolName(`${tag}_${name}`, operation.method, operation.path);
    });
    // Nothing tells them apart by tag: the clash is reported as it always was.
    if (!distinct(byTag)) continue;
    group.forEach((operation, index) => {
      const qualified = byTag[index] as string;
      const by = `its first tag, ${JSON.stringify(firstTag(operation.tags))}`;
      out.set(operation.pointer, {
        name: qualified,
        warning: `operation ${operation.method.toUpperCase()} ${operation.path} is named "${qualified}", by ${by}: ${group.length} operations of the document would be tool "${name}" (OpenAPI requires an operationId to be unique in a document)`,
      });
    });
  }
  return out;
}

function firstTag(tags: unknown): string | undefined {
  const tag = Array.isArray(tags) ? tags[0] : undefined;
  return typeof tag === "string" && tag.trim() !== "" ? tag : undefined;
}

/** Whether every name is given and no two are equal. */
function distinct(names: readonly (string | undefined)[]): boolean {
  return names.every((name) => name !== undefined) && new Set(names).size === names.length;
}
