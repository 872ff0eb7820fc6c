// Whether the value at `path` may be left out, so that `null` (or Python's `None`) there means
// "omit it": its location is optional, or it is a definition every use of which under this
// property name is optional (a shared id type, required as `webhook_id`, optional as `thread_id`).
import type { SchemaHint } from "../contract/tool-spec.ts";
import { pointerTokens } from "../json/json-pointer.ts";

export function optionalAt(hint: SchemaHint, path: string): boolean {
  if (hint.optional === true) return true;
  const names = hint.optionalAs;
  if (names === undefined || path === "") return false;
  return names.includes(pointerTokens(path).at(-1) as string);
}
