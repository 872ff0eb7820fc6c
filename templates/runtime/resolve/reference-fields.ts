// Where a tool's reference fields are in one call's arguments: the reference table's patterns,
// split once per bound tool, expanded over the arguments; and the model writing a target
// property itself, which is refused before any resolver is asked.
import type { ArgumentError } from "../contract/outcome.ts";
import type { ReferenceTable } from "../contract/tool-spec.ts";
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";

/** A reference table entry with its pointer split once, when the tool is bound, not on every call. */
export interface ReferencePattern {
  /** The pattern as the reference table keys it (a JSON Pointer, `*` for any array index). */
  readonly pointer: string;
  readonly tokens: readonly string[];
  readonly kind: string;
  readonly target: string;
}

export function compileReferences(table: ReferenceTable): readonly ReferencePattern[] {
  return Object.entries(table).map(([pattern, field]) => ({ pointer: pattern, tokens: pointerTokens(pattern), kind: field.kind, target: field.target }));
}

export interface Field {
  readonly path: string;
  readonly text: unknown;
  readonly kind: string;
  readonly target: string;
}

/** Every concrete reference field in `value`, in document order, with the table entry for it. */
export function fieldsOf(value: unknown, patterns: readonly ReferencePattern[]): Field[] {
  const found: Field[] = [];
  for (const pattern of patterns) expand(value, { pattern, found }, 0, "");
  return found;
}

/** One pattern being expanded, and where its fields are collected. */
interface FieldWalk {
  readonly pattern: ReferencePattern;
  readonly found: Field[];
}

function expand(node: unknown, walk: FieldWalk, depth: number, at: string): void {
  if (node === null || typeof node !== "object") return;
  const { pattern, found } = walk;
  const head = pattern.tokens[depth];
  if (head === undefined) return;
  if (head === "*") {
    if (Array.isArray(node)) for (let index = 0; index < node.length; index++) expand(node[index], walk, depth + 1, `${at}/${index}`);
    return;
  }
  if (!Object.hasOwn(node, head)) return;
  const child = (node as Record<string, unknown>)[head];
  const path = `${at}/${escapeToken(head)}`;
  if (depth + 1 === pattern.tokens.length) found.push({ path, text: child, kind: pattern.kind, target: pattern.target });
  else expand(child, walk, depth + 1, path);
}

/**
 * The model wrote a target property itself (`customer_id` beside, or instead of, `customer_ref`):
 * possible whenever the object is open. The identifier would reach the implementation without
 * any resolver having seen it, so it is refused, wherever the reference field's object is,
 * whether or not the reference field is there too.
 */
export function targetsSent(value: unknown, patterns: readonly ReferencePattern[]): ArgumentError[] {
  const errors: ArgumentError[] = [];
  for (const pattern of patterns) {
    const found = (holder: object, at: string): void => {
      if (!Object.hasOwn(holder, pattern.target)) return;
      const field = pattern.tokens[pattern.tokens.length - 1] as string;
      errors.push({
        path: `${at}/${escapeToken(pattern.target)}`,
        rule: "reference_target_sent",
        message: `${pattern.target} is filled in from ${field} and must not be sent; remove ${pattern.target} and put the ${pattern.kind}'s name or email, as the user gave it, in ${field}`,
      });
    };
    holders(value, { tokens: pattern.tokens, found }, 0, "");
  }
  return errors;
}

/** The field a holder search looks for, and what is called with each object that holds (or could hold) it. */
interface HolderSearch {
  readonly tokens: readonly string[];
  readonly found: (holder: object, at: string) => void;
}

/** Calls `search.found` with every object that holds (or could hold) the field `search.tokens` names. */
function holders(node: unknown, search: HolderSearch, depth: number, at: string): void {
  if (node === null || typeof node !== "object") return;
  const { tokens, found } = search;
  if (depth === tokens.length - 1) {
    if (!Array.isArray(node)) found(node, at);
    return;
  }
  const head = tokens[depth] as string;
  if (head === "*") {
    if (Array.isArray(node)) for (let index = 0; index < node.length; index++) holders(node[index], search, depth + 1, `${at}/${index}`);
    return;
  }
  if (Object.hasOwn(node, head)) holders((node as Record<string, unknown>)[head], search, depth + 1, `${at}/${escapeToken(head)}`);
}
