// JSON Pointers (RFC 6901): how every error and coercion names a place in the arguments.

/** Escapes one reference token (`~` -> `~0`, `/` -> `~1`). */
export function escapeToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

/** Splits a pointer into its unescaped tokens; `""` is the whole document. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  // indexOf + slice rather than split: V8's split on a freshly concatenated pointer (which most
  // are) cost 2-3x more. Almost no pointer holds an escape, so only those are unescaped.
  const tokens: string[] = [];
  let from = 1;
  for (let to = pointer.indexOf("/", 1); to !== -1; to = pointer.indexOf("/", from)) {
    tokens.push(pointer.slice(from, to));
    from = to + 1;
  }
  tokens.push(pointer.slice(from));
  if (pointer.includes("~")) for (let i = 0; i < tokens.length; i++) tokens[i] = (tokens[i] as string).replaceAll("~1", "/").replaceAll("~0", "~");
  return tokens;
}

/** The value at `pointer`, or `undefined` when nothing is there. Own properties only. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer.includes("~")) return valueAtTokens(document, pointerTokens(pointer));
  // No escapes: walk the pointer in place, without building its token list.
  let node: unknown = document;
  for (let from = 1; from <= pointer.length; ) {
    let to = pointer.indexOf("/", from);
    if (to === -1) to = pointer.length;
    const token = pointer.slice(from, to);
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
    from = to + 1;
  }
  return node;
}

function valueAtTokens(document: unknown, tokens: readonly string[]): unknown {
  let node: unknown = document;
  for (const token of tokens) {
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
  return compareTokens(pointerTokens(a), pointerTokens(b));
}

/** `comparePointers` on pointers already split, for sorts that split each pointer once. */
export function compareTokens(left: readonly string[], right: readonly string[]): number {
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string;
    const y = right[i] as string;
    if (x === y) continue;
    if (isDigits(x) && isDigits(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/** `/^\d+$/.test(token)`, without a regular expression per comparison. */
function isDigits(token: string): boolean {
  if (token.length === 0) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
