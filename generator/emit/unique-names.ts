// Two tools must not share a name, an export or a file: each would silently shadow the other.
// Between tools of the team's own files that is an error to fix. An OpenAPI operation is one of
// many in a vendor's document the team does not edit (clever-cloud's `GET /x` and `get_x` give
// one export name): the later one, in name order, is skipped with the reason, and the document's
// other operations are generated (docs/openapi.md: one operation never refuses its document).
import { InputError, InputErrors } from "../errors.ts";
import type { SkippedTool, ToolDescription } from "../ir.ts";
import { emittedNames } from "./names.ts";

/** The tools whose names are unique in every form, and the OpenAPI operations skipped for a clash. */
export function uniqueNames(
  tools: readonly ToolDescription[],
  options: { readonly strict?: boolean } = {},
): { tools: ToolDescription[]; skipped: SkippedTool[] } {
  const errors: InputError[] = [];
  const kept: ToolDescription[] = [];
  const skipped: SkippedTool[] = [];
  const seen = new Map<string, ToolDescription>();
  for (const tool of tools) {
    // `tools.__proto__` would be the prototype of the tools map, `tools.constructor` shadows it.
    if (tool.name in Object.prototype) {
      errors.push(new InputError(tool.source, `tool name ${JSON.stringify(tool.name)} is a name every JavaScript object already has`, "rename the tool"));
      continue;
    }
    const keys = emittedNames(tool.name);
    const clash = keys.find(([, key]) => seen.has(key) && seen.get(key) !== tool);
    if (clash) {
      const other = seen.get(clash[1]) as ToolDescription;
      const problem = `tool ${JSON.stringify(tool.name)} has the same ${clash[0]} as tool ${JSON.stringify(other.name)} (${other.source.file}#${other.source.pointer})`;
      if (tool.http && !options.strict) skipped.push({ name: tool.name, source: tool.source, reason: `${problem}; fix: ${clashFix(tool, other)}` });
      else errors.push(new InputError(tool.source, problem, tool.http && other.http ? clashFix(tool, other) : "rename one of the two tools"));
      continue;
    }
    for (const [, key] of keys) seen.set(key, tool);
    kept.push(tool);
  }
  if (errors.length > 0) throw new InputErrors(errors);
  return { tools: kept, skipped };
}

/**
 * The fix for two operations with one name. From two documents of one set, the usual cause is two
 * descriptions of one API in one folder (a vendor's versions, or a per-product file that repeats
 * a shared one): renaming would only give two tools for one operation.
 */
function clashFix(tool: ToolDescription, other: ToolDescription): string {
  const rename = "give one of the two operations another operationId";
  if (tool.source.file === other.source.file) return rename;
  const same = tool.http !== undefined && other.http !== undefined && tool.http.method === other.http.method && tool.http.path === other.http.path;
  return `${same ? `both documents describe ${tool.http?.method} ${tool.http?.path}: ` : ""}if the two documents describe one API, read only one of them (name it in the set's \`entry\`, or give each document a set of its own); otherwise ${rename}`;
}
