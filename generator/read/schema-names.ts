// A schema key that is not well-formed Unicode (a lone surrogate, `"\ud800"` in the JSON text) is
// legal JSON, but no model can send it: its tokens and every provider's wire format are UTF-8,
// which has no encoding for it. Nor can it be written into a schema path (`encodeURIComponent`
// throws on it), where ajv and the hint table name locations. Such a tool is refused with the
// key's place, before any emitter meets the key (issue 32: it ended in a URIError, exit 70).
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { pointerToken } from "../json-pointer.ts";
import { isWellFormed } from "../../templates/runtime/parse/json-hazards.ts";

/** The tool, or an InputError naming the first key in its input schema that is not well-formed Unicode. */
export function assertWellFormedKeys(tool: ToolDescription): ToolDescription {
  // Iterative: the schema's depth is bounded by the loader, but this must not depend on it.
  const stack: { value: unknown; at: string }[] = [{ value: tool.inputSchema, at: "" }];
  while (stack.length > 0) {
    const { value, at } = stack.pop() as { value: unknown; at: string };
    if (value === null || typeof value !== "object") continue;
    for (const [key, child] of Object.entries(value)) {
      if (!isWellFormed(key)) {
        throw new InputError(
          tool.source,
          `tool ${tool.name}: the key ${JSON.stringify(key)} at input schema #${at} is not well-formed Unicode (a lone surrogate), which no model can send`,
          "spell the key with whole characters (a surrogate pair, or the character itself)",
        );
      }
      stack.push({ value: child, at: `${at}/${pointerToken(key)}` });
    }
  }
  return tool;
}
