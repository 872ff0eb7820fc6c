// What `generate` says about OpenAI strict mode for a set with an OpenAI extra: per tool,
// whether its schema can be sent with `strict: true`, what strict mode would leave to the guard
// (loosened: the model is constrained less, the guard still checks it), and what blocks it.
// The rules are the runtime's own (templates/runtime/providers/strict-schema.ts, strict-choice.ts), so this
// report and the adapters cannot disagree.
import type { InputSchema } from "../templates/runtime/contract/tool-spec.ts";
import { sendableStrict } from "../templates/runtime/providers/strict-choice.ts";
import { EXTRAS, type ExtraInfo } from "./extras.ts";
import type { ToolDescription } from "./ir.ts";

/** What `generate` says about strict mode: summary lines (stdout) and size-limit warnings (stderr). */
export interface StrictReport {
  readonly lines: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * One pass over the tools (each strict variant built once), for a set with an extra that can send
 * strict tools; nothing otherwise. A tool over OpenAI's size limits counts as not strict, as the
 * adapters send it (providers/strict-choice.ts `sendableStrict`), and gets a warning.
 */
export function strictReport(extras: readonly string[], tools: readonly Pick<ToolDescription, "name" | "inputSchema">[]): StrictReport {
  if (!extras.some((name) => (EXTRAS[name] as ExtraInfo | undefined)?.strictMode)) return { lines: [], warnings: [] };
  // The reader has already refused an input schema whose root is not an object.
  const sendable = tools.map((tool) => ({ name: tool.name, ...sendableStrict(tool.inputSchema as InputSchema) }));
  const strict = sendable.filter(({ variant, over }) => variant.schema !== undefined && over.length === 0).length;
  const lines = [`  OpenAI strict mode: ${strict} of ${tools.length} tool${tools.length === 1 ? "" : "s"} can be strict (strict: true or "auto")`];
  const warnings: string[] = [];
  for (const { name, variant, over } of sendable) {
    const { blocking, loosened } = variant;
    for (const limit of over)
      warnings.push(
        `toolguard: warning: ${name}: its strict schema is over OpenAI's limit for strict tools, so "auto" sends it non-strict and strict: true throws: ${limit}`,
      );
    if (blocking.length === 0 && loosened.length === 0) continue;
    lines.push(`    ${name}: ${blocking.length > 0 ? "cannot be strict" : "strict, with checks left to the guard"}`);
    for (const issue of blocking) lines.push(`      blocks   ${issue.at} ${issue.keyword}: ${issue.why}`);
    for (const issue of loosened) lines.push(`      loosens  ${issue.at} ${issue.keyword}: ${issue.why}`);
  }
  return { lines, warnings };
}
