// Two tools must not share a name, an export or a file: each would silently shadow the other.
// Between tools of the team's own files that is an error to fix. An OpenAPI operation is one of
// many in a vendor's document the team does not edit (clever-cloud's `GET /x` and `get_x` give
// one export name): the later one, in name order, is skipped with the reason, and the document's
// other operations are generated (docs/openapi.md: one operation never refuses its document).
import { InputError, InputErrors } from "../errors.ts";
import type { SkippedTool, ToolDescription } from "../ir.ts";
import { exportName, fileStem, typeBaseName } from "./names.ts";

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
    const keys = [
      ["name", tool.name],
      ["export name", `export:${exportName(tool.name)}`],
      ["file name", `file:${fileStem(tool.name)}`],
      // `a1b` and `a1B` export different functions but the same `A1BArgs` type.
      ["type name", `type:${typeBaseName(tool.name)}`],
    ] as const;
    const clash = keys.find(([, key]) => seen.has(key) && seen.get(key) !== tool);
    if (clash) {
      const other = seen.get(clash[1]) as ToolDescription;
      const problem = `tool ${JSON.stringify(tool.name)} has the same ${clash[0]} as tool ${JSON.stringify(other.name)} (${other.source.file}#${other.source.pointer})`;
      const fix = tool.http && other.http ? operationFix(tool, other) : "rename one of the two tools";
      if (tool.http && !options.strict) skipped.push({ name: tool.name, source: tool.source, reason: `${problem}; fix: ${fix}` });
      else errors.push(new InputError(tool.source, problem, fix));
      continue;
    }
    for (const [, key] of keys) seen.set(key, tool);
    kept.push(tool);
  }
  if (errors.length > 0) throw new InputErrors(errors);
  return { tools: kept, skipped };
}

/**
 * The fix for two operations with one name. From two documents of one folder, the likelier cause
 * is a folder that holds one API several times (its versions, or a copy beside the original,
 * each an entry document since nothing references it): the set's `entry` reads just one.
 */
function operationFix(tool: ToolDescription, other: ToolDescription): string {
  const rename = "give one of the two operations another operationId";
  if (tool.source.file === other.source.file) return rename;
  return `${rename}, or, if ${other.source.file} and ${tool.source.file} describe one API (two versions, or a copy), name the one to generate in the set's "entry" option`;
}
