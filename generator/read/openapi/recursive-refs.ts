// `$recursiveRef` (2019-09, as OpenAI's description uses it) and `$dynamicRef` (2020-12) resolve
// through the dynamic scope, which a tool's self-contained schema does not keep: each referenced
// schema is copied into the tool's `$defs`. They are translated to plain `$ref`s where the
// dynamic resolution can only ever reach one schema:
//
// - `$recursiveRef: "#"` inside a schema marked `$recursiveAnchor: true`: the nearest such
//   enclosing schema, as the authors mean it (OpenAI's recursive filters: each component is its
//   own schema resource; without `$id`, 2019-09 would resolve "#" to the OpenAPI document);
// - `$dynamicRef: "#name"` where exactly one schema in the document has `$dynamicAnchor: name`.
//
// Anything else throws Untranslatable: the operation is skipped with the reason.
import { Untranslatable } from "./untranslatable.ts";
import { pointerToken } from "../../json-pointer.ts";

type Schema = Record<string, unknown>;

const cache = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

/** Where each `$dynamicAnchor` name is declared in a document. */
function dynamicAnchors(document: unknown): ReadonlyMap<string, readonly string[]> {
  if (document === null || typeof document !== "object") return new Map();
  const known = cache.get(document);
  if (known) return known;
  const dynamic = new Map<string, string[]>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, `${at}/${index}`);
      return;
    }
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

/** The document pointer a `$recursiveRef` resolves to, given the nearest enclosing anchor. */
export function recursiveTarget(ref: unknown, at: string, enclosingAnchor: string | undefined): string {
  if (ref !== "#") throw new Untranslatable(at, `$recursiveRef ${JSON.stringify(ref)}: only "#" is defined`);
  if (enclosingAnchor === undefined)
    throw new Untranslatable(at, "$recursiveRef outside any schema with $recursiveAnchor: true resolves to the document itself");
  return enclosingAnchor;
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
