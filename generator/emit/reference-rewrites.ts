// Step 4's rewrite of each reference field's object, written per tool: the object rebuilt
// without the field and with the resolved identifier in the field's target, in the model's key
// order. The runtime's `withoutField` builds the same object for any holder, but its stores take
// their keys from the object being copied, and an engine cannot specialise a store whose key
// changes on every call: on the invoice that rebuild was ~85 ns of a ~1.1 µs floor. Here the keys
// the schema declares at the field's object are named in a `switch`, so each read and store is a
// direct one (~20 ns); any other key (an open object's extra property, `__proto__`) takes the
// generic store. The result does not depend on which keys are named: naming them is only speed.
import type { ToolDescription } from "../ir.ts";
import { pointerTokens } from "../json-pointer.ts";
import { Code, isSafeIdentifier, literal } from "../safe-emit.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { readings } from "./union-branches.ts";

/** The runtime helper the rewrites import, for keys they do not name. */
export const REWRITE_IMPORT = 'import { putOwn } from "../runtime/resolve/apply-resolutions.js";';

/**
 * Keys named per rewrite at most. A `switch` over strings compares one case after another, so
 * past a few dozen comparisons per key the generic rebuild is as fast; a bigger object keeps
 * its first keys named and the rest go the generic way.
 */
const MAX_NAMED_KEYS = 12;
/** `allOf` levels read for the field's object's keys: more is a schema not worth reading. */
const MAX_ALLOF_DEPTH = 32;

/** The `rewrites` table of a tool's module, or undefined for a tool without reference fields. */
export function referenceRewrites(tool: Pick<ToolDescription, "references" | "inputSchema">): Code | undefined {
  const fields = Object.entries(tool.references).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (fields.length === 0) return undefined;
  const entries = fields.map(([pattern, field]) => {
    const tokens = pointerTokens(pattern);
    const key = tokens.at(-1) as string;
    const named = namedKeys(tool.inputSchema as Schema, tokens.slice(0, -1)).filter((name) => name !== key && name !== "__proto__");
    return `  ${literal(pattern).text}: ${rewrite(key, field.target, named.slice(0, MAX_NAMED_KEYS))},`;
  });
  return new Code(`{\n${entries.join("\n")}\n}`);
}

function rewrite(field: string, target: string, named: readonly string[]): string {
  const cases = named.map((name) => [`        case ${literal(name).text}:`, `          rebuilt${access(name)} = holder${access(name)};`, "          break;"]);
  return [
    "(holder, id) => {",
    "    const rebuilt = {};",
    "    for (const key of Object.keys(holder)) {",
    "      switch (key) {",
    `        case ${literal(field).text}:`,
    "          break;",
    ...cases.flat(),
    "        default:",
    "          putOwn(rebuilt, key, holder[key]);",
    "      }",
    "    }",
    target === "__proto__" ? '    putOwn(rebuilt, "__proto__", id);' : `    rebuilt${access(target)} = id;`,
    "    return rebuilt;",
    "  }",
  ].join("\n");
}

/** `.name` where the name is an identifier, else `["name"]`: both a named access to the engine. */
function access(name: string): string {
  return isSafeIdentifier(name) ? `.${name}` : `[${literal(name).text}]`;
}

/**
 * The property names the schema declares on the object at `tokens` (`*` = an array's items),
 * in the schema's order, following local `$ref`s and `allOf`; none where the schema says nothing.
 */
function namedKeys(root: Schema, tokens: readonly string[]): string[] {
  let node: Schema | undefined = deref(root, root);
  for (const token of tokens) {
    if (node === undefined) return [];
    const child: unknown = token === "*" ? node["items"] : isSchemaObject(node["properties"]) ? (node["properties"] as Schema)[token] : undefined;
    node = deref(root, child);
  }
  if (node === undefined) return [];
  const names = new Set<string>();
  collectNames(root, node, names, 0, new Set());
  return [...names];
}

// `read`: schemas whose names are collected already. Branches shared through `$ref`s are read
// once, or `allOf: [A, A]` nested 32 deep would read 2^32 schemas (issue 32's fan-out).
function collectNames(root: Schema, node: Schema, names: Set<string>, depth: number, read: Set<Schema>): void {
  if (read.has(node)) return;
  read.add(node);
  if (isSchemaObject(node["properties"])) for (const name of Object.keys(node["properties"])) names.add(name);
  if (depth < MAX_ALLOF_DEPTH && Array.isArray(node["allOf"])) {
    for (const branch of node["allOf"]) {
      const schema = deref(root, branch);
      if (schema !== undefined) collectNames(root, schema, names, depth + 1, read);
    }
  }
}

/** The schema `value`'s local `$ref` chain ends at (`readings`). */
function deref(root: Schema, value: unknown): Schema | undefined {
  return isSchemaObject(value) ? readings(value, root).at(-1) : undefined;
}
