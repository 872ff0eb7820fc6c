// JSON Pointers (RFC 6901): how every error and coercion names a place in the arguments.

/** Escapes one reference token (`~` -> `~0`, `/` -> `~1`). */
export function escapeToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

/** Splits a pointer into its unescaped tokens; `""` is the whole document. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at `pointer`, or `undefined` when nothing is there. Own properties only. */
export function valueAt(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * Orders pointers token by token, array indices numerically, so `/items/2` sorts before
 * `/items/10` and a parent before its children.
 */
export function comparePointers(a: string, b: string): number {
  const left = pointerTokens(a);
  const right = pointerTokens(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string;
    const y = right[i] as string;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    if (numeric) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
