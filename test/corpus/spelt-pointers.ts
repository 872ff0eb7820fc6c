// Pointers into the document as written, followed into the tree the judge gives ajv. spell30
// moves each nullable schema one level down (`anyOf: [schema, {type: null}]`), so a `$ref` that
// goes through one (DigitalOcean: `#/paths/~1v2~1databases/get/responses/200/.../users/items`,
// where `users` is nullable) names nothing in the spelt tree: ajv "can't resolve reference".
// Each such pointer gets `/anyOf/0` after every wrapped schema it passes through; a pointer that
// ends at a wrapped schema names the wrapper, which is the schema with its null.

type Node = Record<string, unknown>;

/** Maps a pointer of the document as written to the same schema in the spelt tree. */
export function spelt(wrapped: ReadonlySet<string>): (pointer: string) => string {
  if (wrapped.size === 0) return (pointer) => pointer;
  return (pointer) => {
    let written = "";
    let out = "";
    for (const token of pointer.split("/").slice(1)) {
      if (wrapped.has(written)) out += "/anyOf/0";
      written += `/${token}`;
      out += `/${token}`;
    }
    return out;
  };
}

/** `ref` (`#/...` or `doc#/...`, URI-encoded as a `$ref` is) followed into the spelt tree. */
export function speltRef(ref: string, follow: (pointer: string) => string): string {
  const hash = ref.indexOf("#");
  if (hash < 0 || ref[hash + 1] !== "/") return ref;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(hash + 1));
  } catch {
    return ref;
  }
  const moved = follow(pointer);
  return moved === pointer ? ref : `${ref.slice(0, hash)}#${encodeURI(moved)}`;
}

/** Every local `$ref` (`#/...`, `doc#/...`) under `node` followed into the spelt tree, in place. */
export function followRefs<T>(node: T, follow: (pointer: string) => string, depth = 0): T {
  if (depth > 400 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    for (const item of node) followRefs(item, follow, depth + 1);
    return node;
  }
  const schema = node as Node;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") schema.$ref = speltRef(value, follow);
    else if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const" && key !== "default") followRefs(value, follow, depth + 1);
  }
  return node;
}
