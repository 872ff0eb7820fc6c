// The set's `trustServers` option (SchemaSetConfig in config.ts), checked: which OpenAPI
// operations may be dispatched to servers on another host than the document's own.
import { UsageError } from "./errors.ts";

/** `true`, the sorted operation names, or undefined when absent; a UsageError naming `at` when malformed. */
export function trustServersOption(value: unknown, at: string): true | string[] | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return true;
  if (!Array.isArray(value) || value.some((name) => typeof name !== "string" || name === ""))
    throw new UsageError(`${at} must be true, false, or a list of operation names (operationIds or tool names)`);
  return value.length === 0 ? undefined : [...new Set(value as string[])].sort();
}
