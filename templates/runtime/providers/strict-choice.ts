// Which schema an OpenAI adapter sends for a tool, strict or not: the strict variant
// (strict-schema.ts) when there is one and it is within OpenAI's size limits (strict-limits.ts).
// `generate`'s strict-mode report asks the same question (`sendableStrict`), so they agree.
import type { InputSchema } from "../contract/tool-spec.ts";
import { strictLimitsExceeded } from "./strict-limits.ts";
import { strictVariant, type StrictVariant } from "./strict-schema.ts";

/** How a tool is shown to an OpenAI model under a strict choice, and which nulls its calls drop. */
export interface StrictChoice {
  readonly parameters: InputSchema;
  readonly strict: boolean;
  /** For `CallContext.absentNulls`; `undefined` when the tool is not strict. */
  readonly absentNulls: readonly string[] | undefined;
}

/**
 * The strict variant and the OpenAI size limits it is over (none when there is no variant): a
 * tool is sent strict only with a variant and no limit exceeded, since the API refuses the rest
 * with a 400. One place, so the adapters and `generate`'s report agree.
 */
export function sendableStrict(schema: InputSchema): { readonly variant: StrictVariant; readonly over: readonly string[] } {
  const variant = strictVariant(schema);
  return { variant, over: variant.schema ? strictLimitsExceeded(variant.schema) : [] };
}

/**
 * The schema to send for `tool` when the caller chose `strict`: `false` the tool's own schema;
 * `true` its strict variant, throwing with why when there is none; `"auto"` the strict variant
 * where there is one. Shared by the OpenAI and OpenAI Agents adapters, so they agree.
 */
export function chooseStrictness(tool: { readonly name: string; readonly inputSchema: InputSchema }, strict: boolean | "auto"): StrictChoice {
  const own: StrictChoice = { parameters: tool.inputSchema, strict: false, absentNulls: undefined };
  if (strict === false) return own;
  const { variant, over } = sendableStrict(tool.inputSchema);
  if (variant.schema && over.length === 0) return { parameters: variant.schema, strict: true, absentNulls: variant.absentNulls };
  if (strict === "auto") return own;
  const reasons = [...variant.blocking.map((issue) => `${issue.at}: ${issue.why}`), ...over.map((limit) => `over OpenAI's size limit: ${limit}`)].join("; ");
  throw new TypeError(`toolguard: ${tool.name} cannot be sent with strict: true (${reasons}); use strict: "auto" or false`);
}
