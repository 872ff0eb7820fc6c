// Following a path item's or an operation's `$ref` (read-openapi.ts): the object it points at,
// the referring object's own keys winning, and where in the document each key was written.
import { InputError } from "../../errors.ts";
import { resolvePointer } from "../../json-pointer.ts";

/**
 * The path item, its `$ref`s followed (the referring object's own keys win), and where each of
 * its keys is in the document: the referring path's pointer for its own keys, the target's for
 * the keys the `$ref` brought.
 */
export function followPathItem(
  file: string,
  document: unknown,
  item: unknown,
  pointer: string,
): { item: Record<string, unknown>; ownerOf: (key: string) => string } {
  const followed = followRefs(file, document, item, pointer, "path item", "Path Item Object");
  if (followed.item === null || typeof followed.item !== "object" || Array.isArray(followed.item)) {
    throw new InputError({ file, pointer }, "a path item must be an object", "describe the path as a Path Item Object");
  }
  return followed as { item: Record<string, unknown>; ownerOf: (key: string) => string };
}

/**
 * An Operation Object written as a `$ref` to a shared one, its own keys beside the `$ref`
 * (Algolia's split description: `post: {operationId: customPost, requestBody: ..., $ref:
 * ../schemas/CustomRequest.yml#/customRequest}`, and the split bundled, where every operation but
 * the first points at the first). OpenAPI has no reference for an operation, but the vendors'
 * bundlers (Redocly's, ref-parser) merge it so, and the one-file description they publish is that
 * merge: it is followed as a path item's `$ref` is, the operation's own keys winning.
 */
export function followOperation(file: string, document: unknown, operation: unknown, pointer: string): { item: unknown; ownerOf: (key: string) => string } {
  return followRefs(file, document, operation, pointer, "operation", "Operation Object");
}

function followRefs(
  file: string,
  document: unknown,
  item: unknown,
  pointer: string,
  what: string,
  object: string,
): { item: unknown; ownerOf: (key: string) => string } {
  let current = item;
  const owners = new Map<string, string>();
  let here = pointer;
  for (let hops = 0; current !== null && typeof current === "object" && typeof (current as { $ref?: unknown }).$ref === "string"; hops++) {
    const ref = (current as { $ref: string }).$ref;
    const targetPointer = ref.startsWith("#/") ? decodeURIComponent(ref.slice(1)) : "";
    const target = ref.startsWith("#/") && hops < 16 ? resolvePointer(document, targetPointer) : undefined;
    if (target === undefined)
      throw new InputError({ file, pointer: `${pointer}/$ref` }, `${what} $ref "${ref}" points at nothing`, `point the $ref at an existing ${object}`);
    for (const key of Object.keys(current)) if (key !== "$ref" && !owners.has(key)) owners.set(key, here);
    here = targetPointer;
    current =
      target === null || typeof target !== "object" || Array.isArray(target)
        ? target
        : { ...(target as object), ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== "$ref")) };
  }
  const last = here;
  return { item: current, ownerOf: (key) => owners.get(key) ?? last };
}
