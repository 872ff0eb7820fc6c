// A step between parse and validate, used only for calls made through an OpenAI strict schema.
// Strict mode cannot leave a field out, so its schema (providers/strict-schema.ts) makes every
// optional field required and nullable, and the model sends `null` for "not given". Those
// nulls, and only those, are removed here, so the guard validates the call the model meant
// against the tool's own schema. Which places may hold such a null is fixed by the strict
// schema (JSON Pointer patterns, `*` for any array index); a null anywhere else is validated
// as sent, and a null removed from a required field is reported missing.
import { escapeToken, pointerTokens } from "../json/json-pointer.ts";

/**
 * Removes, in place, each `null` found at one of `patterns` in `document` (the guard's own
 * copy, fresh from `JSON.parse`) and returns the concrete paths it removed, in pattern order.
 */
export function dropAbsentNulls(document: unknown, patterns: readonly string[]): string[] {
  const dropped: string[] = [];
  for (const pattern of patterns) visit(document, { tokens: pointerTokens(pattern), dropped }, 0, "");
  return dropped;
}

/** Removes the members at `paths` again (concrete paths, as `dropAbsentNulls` returned them). */
export function removeAbsent(document: unknown, paths: readonly string[]): void {
  for (const path of paths) visit(document, { tokens: pointerTokens(path), dropped: [] }, 0, "");
}

/** One pattern being followed, and where the paths of the nulls it dropped are collected. */
interface NullWalk {
  readonly tokens: readonly string[];
  readonly dropped: string[];
}

function visit(node: unknown, walk: NullWalk, depth: number, path: string): void {
  if (node === null || typeof node !== "object") return;
  const tokens = walk.tokens;
  const token = tokens[depth] as string;
  const last = depth === tokens.length - 1;
  if (token === "*") {
    if (!Array.isArray(node) || last) return;
    for (let index = 0; index < node.length; index++) visit(node[index], walk, depth + 1, `${path}/${index}`);
    return;
  }
  if (Array.isArray(node)) {
    // A concrete index, as `removeAbsent` replays it; an array element is never itself absent.
    if (!last && /^(?:0|[1-9]\d*)$/.test(token)) visit(node[Number(token)], walk, depth + 1, `${path}/${token}`);
    return;
  }
  if (!Object.hasOwn(node, token)) return;
  const record = node as Record<string, unknown>;
  const here = `${path}/${escapeToken(token)}`;
  if (!last) {
    visit(record[token], walk, depth + 1, here);
    return;
  }
  if (record[token] !== null) return;
  delete record[token];
  walk.dropped.push(here);
}
