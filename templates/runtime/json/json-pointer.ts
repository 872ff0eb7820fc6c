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

/**
 * What a local `$ref` (`#` and a JSON Pointer, percent-encoded as a URI fragment: the generator
 * writes `%` as `%25`) points at in `root`; undefined when it points nowhere or is malformed.
 */
export function localRefTarget(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return valueAt(root, pointer);
}

/** The value at `pointer`, or `undefined` when nothing is there. Own properties only. */
export function valueAt(document: unknown, pointer: string): unknown {
  return valueAtTokens(document, cachedTokens(pointer));
}

// Explaining a failed call reads values at the pointers ajv reports, which are strings built
// afresh on every call: a property read with a fresh key string makes the engine look the key up
// in its string table first (~85 ns, most of a one-error explanation's reads). The last few
// pointers keep their tokens, as the engine's own (internalised) strings, so a repeated mistake
// (models repeat theirs, and calls share paths) costs a string comparison instead.
const CACHED = 8;
/** The last `CACHED` pointers and their tokens, in a ring: `next` is the slot written next. */
const RECENT: { readonly pointers: string[]; readonly tokenLists: (readonly string[])[]; next: number } = { pointers: [], tokenLists: [], next: 0 };

function cachedTokens(pointer: string): readonly string[] {
  // Long pointers (model-chosen keys) are neither kept nor worth keeping.
  if (pointer.length > 256) return pointerTokens(pointer);
  const { pointers, tokenLists } = RECENT;
  for (let i = 0; i < pointers.length; i++) if (pointers[i] === pointer) return tokenLists[i] as readonly string[];
  const tokens = pointerTokens(pointer).map(internalised);
  pointers[RECENT.next] = pointer;
  tokenLists[RECENT.next] = tokens;
  RECENT.next = (RECENT.next + 1) % CACHED;
  return tokens;
}

/** The engine's own copy of `text`: an object literal's key is internalised, and Object.keys returns it. */
function internalised(text: string): string {
  return Object.keys({ [text]: 0 })[0] as string;
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
 * `/items/10` and a parent before its children. Pointers without escapes (nearly all) are
 * compared token by token as they are read, without splitting them into token lists.
 */
export function comparePointers(a: string, b: string): number {
  if (a === b) return 0;
  if (a.includes("~") || b.includes("~")) return compareTokens(pointerTokens(a), pointerTokens(b));
  // `i` and `j` sit on the "/" before each pointer's next token, or at its end.
  for (let i = 0, j = 0; ; ) {
    if (i >= a.length) return j >= b.length ? 0 : -1;
    if (j >= b.length) return 1;
    let endA = a.indexOf("/", i + 1);
    if (endA === -1) endA = a.length;
    let endB = b.indexOf("/", j + 1);
    if (endB === -1) endB = b.length;
    // Like compareTokens, the first differing token decides (indices numerically).
    const x = a.slice(i + 1, endA);
    const y = b.slice(j + 1, endB);
    if (x !== y) return compareToken(x, y);
    i = endA;
    j = endB;
  }
}

/** Two different tokens in order: indices numerically, anything else by UTF-16 code units. */
function compareToken(x: string, y: string): number {
  if (isDigits(x) && isDigits(y)) return Number(x) - Number(y);
  return x < y ? -1 : 1;
}

/** Whether `text` is a non-empty run of digits (`/^\d+$/`, without a regular expression per comparison). */
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** `comparePointers` on pointers already split, for sorts that split each pointer once. */
export function compareTokens(left: readonly string[], right: readonly string[]): number {
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string;
    const y = right[i] as string;
    if (x !== y) return compareToken(x, y);
  }
  return left.length - right.length;
}
