// The set's `argumentNames` option (SchemaSetConfig in config.ts), checked and sorted: the
// argument each OpenAPI parameter travels under, by operation, without editing the vendor's file.
import type { ArgumentNames } from "./config.ts";
import { UsageError } from "./errors.ts";

/** The option resolved (operations sorted), or undefined when absent; a UsageError naming `at` when malformed. */
export function argumentNamesOption(value: unknown, at: string): ArgumentNames | undefined {
  if (value === undefined) return undefined;
  const isRecord = (item: unknown): item is Record<string, unknown> => item !== null && typeof item === "object" && !Array.isArray(item);
  if (!isRecord(value)) throw new UsageError(`${at} must map operations (operationId, tool name or "*") to {"<in>.<name>": "<argument>"}`);
  const out: Record<string, Record<string, string>> = {};
  for (const [operation, renames] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (operation === "" || !isRecord(renames))
      throw new UsageError(`${at}.${operation || '""'} must map "<in>.<name>" (in: path, query, header or cookie) to an argument name`);
    const entry: Record<string, string> = {};
    for (const [parameter, name] of Object.entries(renames)) {
      if (!PARAMETER_KEY.test(parameter))
        throw new UsageError(`${at}.${operation}: "${parameter}" must be "<in>.<name>" with in one of path, query, header, cookie (e.g. "query.id")`);
      if (typeof name !== "string" || name === "" || name === "body")
        throw new UsageError(`${at}.${operation}["${parameter}"] must be a non-empty argument name other than "body" (the request body's)`);
      entry[parameter] = name;
    }
    out[operation] = entry;
  }
  return out;
}

/** `<in>.<name>`: the parameter's location, then its name (which may hold dots). */
const PARAMETER_KEY = /^(path|query|header|cookie)\..+$/s;
