// The config's `advice` option of a set, checked: what a mistyped entry would otherwise do is
// silence nothing, quietly.
import { UsageError } from "../errors.ts";
import { ADVICE_KINDS } from "./advice-item.ts";

/** `false`, or `{ignore: [...]}` of tool names and `tool:kind`s, sorted; undefined for the default (all advice). */
export function adviceOption(value: unknown, at: string): false | { ignore: string[] } | undefined {
  if (value === undefined || value === true) return undefined;
  if (value === false) return false;
  const form = `${at} must be false or { ignore: ["tool_name", "tool_name:kind"] } (kinds: ${ADVICE_KINDS.join(", ")})`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError(form);
  const { ignore, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new UsageError(`${at}: unknown option "${Object.keys(rest)[0]}" (known: ignore)`);
  if (ignore === undefined) return undefined;
  if (!Array.isArray(ignore)) throw new UsageError(form);
  for (const [index, entry] of ignore.entries()) {
    if (typeof entry !== "string" || entry === "") throw new UsageError(`${at}.ignore[${index}] must be a tool name, or "tool_name:kind"`);
    const colon = entry.lastIndexOf(":");
    const kind = colon < 0 ? undefined : entry.slice(colon + 1);
    if (kind !== undefined && (colon === 0 || !(ADVICE_KINDS as readonly string[]).includes(kind)))
      throw new UsageError(
        `${at}.ignore[${index}]: ${JSON.stringify(entry)} names no kind of advice (write "tool_name:kind"; kinds: ${ADVICE_KINDS.join(", ")})`,
      );
  }
  return ignore.length === 0 ? undefined : { ignore: [...new Set(ignore as string[])].sort() };
}
