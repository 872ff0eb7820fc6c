// Two tools must not share a name, an export or a file: each would silently shadow the other.
import { InputError, InputErrors } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { exportName, fileStem } from "./names.ts";

export function assertUniqueNames(tools: readonly ToolDescription[]): void {
  const errors: InputError[] = [];
  const seen = new Map<string, ToolDescription>();
  for (const tool of tools) {
    for (const [what, key] of [
      ["name", tool.name],
      ["export name", `export:${exportName(tool.name)}`],
      ["file name", `file:${fileStem(tool.name)}`],
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
