// Two tools must not share a name, an export or a file: each would silently shadow the other.
import { InputError, InputErrors } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { exportName, fileStem, typeBaseName } from "./names.ts";

export function assertUniqueNames(tools: readonly ToolDescription[]): void {
  const errors: InputError[] = [];
  const seen = new Map<string, ToolDescription>();
  for (const tool of tools) {
    // `tools.__proto__` would be the prototype of the tools map, `tools.constructor` shadows it.
    if (tool.name in Object.prototype) {
      errors.push(new InputError(tool.source, `tool name ${JSON.stringify(tool.name)} is a name every JavaScript object already has`, "rename the tool"));
      continue;
    }
    for (const [what, key] of [
      ["name", tool.name],
      ["export name", `export:${exportName(tool.name)}`],
      ["file name", `file:${fileStem(tool.name)}`],
      // `a1b` and `a1B` export different functions but the same `A1BArgs` type.
      ["type name", `type:${typeBaseName(tool.name)}`],
    ] as const) {
      const other = seen.get(key);
      if (other && other !== tool) {
        errors.push(
          new InputError(
            tool.source,
            `tool ${JSON.stringify(tool.name)} has the same ${what} as tool ${JSON.stringify(other.name)} (${other.source.file}#${other.source.pointer})`,
            "rename one of the two tools",
          ),
        );
        break;
      }
      seen.set(key, tool);
    }
  }
  if (errors.length > 0) throw new InputErrors(errors);
}
