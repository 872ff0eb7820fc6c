// Reads a tool's input schema as the validator means it: local `$ref`s followed to their
// definitions (with sibling keywords laid over the target, as 2020-12 applies both), so the
// comparison sees what a value must be, not how the file spells it.
import { decodeToken } from "../json-pointer.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";

/** A schema node and where it sits in its root (a JSON Pointer, `""` for the root). */
export interface Located {
  /** `true`/`false` schemas stay booleans; anything else not an object is read as `{}`. */
  readonly node: Schema | boolean;
  readonly pointer: string;
}

/** How many `$ref`s in a row are followed before a chain is taken to be a loop. */
const MAX_CHAIN = 64;

/**
 * `node` with its local `$ref` chain followed. A reference that cannot be followed (a remote
 * URL, an anchor) is left in place: the comparison then compares the reference text.
 */
export function deref(root: Schema, node: unknown, pointer: string): Located {
  let current: unknown = node;
  let at = pointer;
  let siblings: Schema | undefined;
  for (let step = 0; step < MAX_CHAIN; step++) {
    if (typeof current === "boolean") return { node: siblings && Object.keys(siblings).length > 0 && current ? siblings : current, pointer: at };
    if (!isSchemaObject(current)) return { node: siblings ?? {}, pointer: at };
    const ref = current.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#") || (ref.length > 1 && !ref.startsWith("#/"))) {
      return { node: siblings ? { ...current, ...siblings } : current, pointer: at };
    }
    const target = resolveLocal(root, ref);
    if (target === undefined) return { node: siblings ? { ...current, ...siblings } : current, pointer: at };
    const { $ref: _ref, ...rest } = current;
    // Keywords beside a `$ref` apply too; the nearer ones win over the definition's.
    siblings = { ...rest, ...siblings };
    delete siblings.$defs;
    delete siblings.definitions;
    current = target;
    at = ref.slice(1);
  }
  return { node: siblings ?? {}, pointer: at };
}

function resolveLocal(root: Schema, ref: string): unknown {
  let value: unknown = root;
  const tokens = ref.slice(2).split("/");
  // "#" and "#/" point at the root itself: no token to follow.
  for (const raw of tokens.length === 1 && tokens[0] === "" ? [] : tokens) {
    const token = decodeToken(decodeURIComponent(raw));
    if (Array.isArray(value)) value = value[Number(token)];
    else if (isSchemaObject(value)) value = value[token];
    else return undefined;
  }
  return value;
}

const canonicalCache = new WeakMap<object, string>();

/** JSON text with object keys sorted: equal text means equal values. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const cached = canonicalCache.get(value);
  if (cached !== undefined) return cached;
  const text = Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : `{${Object.keys(value)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical((value as Schema)[key])}`)
        .join(",")}}`;
  canonicalCache.set(value, text);
  return text;
}

/** A value shortened for a one-line message. */
export function shown(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
