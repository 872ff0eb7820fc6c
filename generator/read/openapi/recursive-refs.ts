// `$recursiveRef` (2019-09, as OpenAI's description uses it) and `$dynamicRef` (2020-12) resolve
// through the dynamic scope, which a tool's self-contained schema does not keep: each referenced
// schema is copied into the tool's `$defs`. They are translated to plain `$ref`s where the
// dynamic resolution can only ever reach one schema:
//
// - `$recursiveRef: "#"` inside a schema marked `$recursiveAnchor: true`. Each such schema is read
//   as its own schema resource, as the authors mean it (OpenAI's recursive filters: without
//   `$id`, 2019-09 would resolve "#" to the OpenAPI document). The initial target is the nearest
//   enclosing one; since it is anchored, 2019-09 then goes to the outermost anchored schema in
//   the dynamic scope: the first one on the `$ref` path from the tool's schema. A target whose
//   `$recursiveRef`s that changes is imported once per outermost anchor it is reached under,
//   so each copy's references are plain `$ref`s.
// - `$dynamicRef: "#name"` where exactly one schema in the document has `$dynamicAnchor: name`.
//
// Anything else throws Untranslatable: the operation is skipped with the reason.
import { Untranslatable } from "./untranslatable.ts";
import { pointerToken, resolvePointer } from "../../json-pointer.ts";

type Schema = Record<string, unknown>;

const cache = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

/** Where each `$dynamicAnchor` name is declared in a document. */
function dynamicAnchors(document: unknown): ReadonlyMap<string, readonly string[]> {
  if (document === null || typeof document !== "object") return new Map();
  const known = cache.get(document);
  if (known) return known;
  const dynamic = new Map<string, string[]>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${at}/${index}`));
    if (node === null || typeof node !== "object") return;
    const schema = node as Schema;
    if (typeof schema.$dynamicAnchor === "string") dynamic.set(schema.$dynamicAnchor, [...(dynamic.get(schema.$dynamicAnchor) ?? []), at]);
    for (const [key, child] of Object.entries(schema))
      if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const") walk(child, `${at}/${pointerToken(key)}`);
  };
  walk(document, "");
  cache.set(document, dynamic);
  return dynamic;
}

/** True for a schema marked `$recursiveAnchor: true`. */
export function isAnchored(schema: unknown): boolean {
  return schema !== null && typeof schema === "object" && (schema as Schema).$recursiveAnchor === true;
}

/**
 * The document pointer a `$recursiveRef` resolves to: the outermost anchored schema on the `$ref`
 * path, given the nearest enclosing one (its initial target, which must exist).
 */
export function recursiveTarget(ref: unknown, at: string, enclosingAnchor: string | undefined, outermostAnchor: string | undefined): string {
  if (ref !== "#") throw new Untranslatable(at, `$recursiveRef ${JSON.stringify(ref)}: only "#" is defined`);
  if (enclosingAnchor === undefined)
    throw new Untranslatable(at, "$recursiveRef outside any schema with $recursiveAnchor: true resolves to the document itself");
  return outermostAnchor ?? enclosingAnchor;
}

const reaching = new WeakMap<object, Map<string, boolean>>();

/** Whether the schema at `pointer`, or any it references, has a `$recursiveRef`. */
export function reachesRecursiveRef(document: unknown, pointer: string): boolean {
  if (document === null || typeof document !== "object") return false;
  let known = reaching.get(document);
  if (!known) reaching.set(document, (known = new Map()));
  const cached = known.get(pointer);
  if (cached !== undefined) return cached;
  const visited = new Set<string>([pointer]);
  const pending = [resolvePointer(document, pointer)];
  let found = false;
  while (pending.length > 0 && !found) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (node === null || typeof node !== "object" || Array.isArray(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      if (key === "$recursiveRef") found = true;
      else if (key === "$ref" && typeof child === "string" && child.startsWith("#")) {
        const target = decodeURIComponent(child.slice(1));
        if (visited.has(target)) continue;
        visited.add(target);
        pending.push(resolvePointer(document, target));
      } else if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const") pending.push(child);
    }
  }
  known.set(pointer, found);
  return found;
}

/** The document pointer a `$dynamicRef` resolves to. */
export function dynamicTarget(document: unknown, ref: unknown, at: string): string {
  if (typeof ref !== "string" || !/^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref))
    throw new Untranslatable(at, `$dynamicRef ${JSON.stringify(ref)}: only a local anchor ("#name") is followed`);
  const targets = dynamicAnchors(document).get(ref.slice(1)) ?? [];
  if (targets.length !== 1) {
    throw new Untranslatable(
      at,
      `$dynamicRef ${ref}: ${targets.length === 0 ? "no schema declares" : `${targets.length} schemas declare`} $dynamicAnchor "${ref.slice(1)}", so it cannot be resolved statically`,
    );
  }
  return targets[0] as string;
}
