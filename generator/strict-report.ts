// What `generate` says about OpenAI strict mode for a set with an OpenAI extra: per tool,
// whether its schema can be sent with `strict: true`, what strict mode would leave to the guard
// (loosened: the model is constrained less, the guard still checks it), and what blocks it.
// The rules are the runtime's own (templates/runtime/providers/strict-schema.ts), so this
// report and the adapters cannot disagree.
import type { InputSchema } from "../templates/runtime/contract/tool-spec.ts";
import { strictLimitsExceeded } from "../templates/runtime/providers/strict-limits.ts";
import { strictVariant } from "../templates/runtime/providers/strict-schema.ts";
import { EXTRAS, type ExtraInfo } from "./extras.ts";
import type { ToolDescription } from "./ir.ts";

/** Lines for the summary; none when the set has no extra that can send strict tools. */
export function strictReport(extras: readonly string[], tools: readonly Pick<ToolDescription, "name" | "inputSchema">[]): string[] {
  if (!extras.some((name) => (EXTRAS[name] as ExtraInfo | undefined)?.strictMode)) return [];
  const lines: string[] = [];
  // The reader has already refused an input schema whose root is not an object.
  const variants = tools.map((tool) => ({ name: tool.name, ...strictVariant(tool.inputSchema as InputSchema) }));
  const strict = variants.filter((variant) => variant.schema !== undefined).length;
  lines.push(`  OpenAI strict mode: ${strict} of ${tools.length} tool${tools.length === 1 ? "" : "s"} can be strict (strict: true or "auto")`);
  for (const { name, blocking, loosened } of variants) {
    if (blocking.length === 0 && loosened.length === 0) continue;
    lines.push(`    ${name}: ${blocking.length > 0 ? "cannot be strict" : "strict, with checks left to the guard"}`);
    for (const issue of blocking) lines.push(`      blocks   ${issue.at} ${issue.keyword}: ${issue.why}`);
    for (const issue of loosened) lines.push(`      loosens  ${issue.at} ${issue.keyword}: ${issue.why}`);
  }
  return lines;
}

/**
 * Warnings for the tools whose strict variant is over one of OpenAI's size limits
 * (providers/strict-limits.ts): the adapters send them non-strict under `"auto"` and refuse
 * `strict: true` for them. None without an OpenAI extra.
 */
export function strictLimitWarnings(extras: readonly string[], tools: readonly Pick<ToolDescription, "name" | "inputSchema">[]): string[] {
  if (!extras.some((name) => (EXTRAS[name] as ExtraInfo | undefined)?.strictMode)) return [];
  const warnings: string[] = [];
  for (const tool of tools) {
    const { schema } = strictVariant(tool.inputSchema as InputSchema);
    if (schema === undefined) continue;
    for (const over of strictLimitsExceeded(schema))
      warnings.push(
        `toolguard: warning: ${tool.name}: its strict schema is over OpenAI's limit for strict tools, so "auto" sends it non-strict and strict: true throws: ${over}`,
      );
  }
  return warnings;
}
