// Pre-traffic advice: what a tool's schema alone says will make models fail, before any call is
// made. The same diagnoses `toolguard report` makes from traffic (an enum the model cannot read,
// a required field it will omit, arguments that truncate, an identifier it has to invent), found
// where the schema already shows them. Advice is never an error: `generate` prints it and goes on.
import { ADVICE_KINDS, type Advice, type AdvisedTool } from "./advice-item.ts";
import { inventedIdAdvice } from "./invented-id.ts";
import { outputBudgetAdvice } from "./output-budget.ts";
import { requiredDefaultAdvice } from "./required-default.ts";
import { undescribedEnumAdvice } from "./undescribed-enum.ts";

export { ADVICE_KINDS, type Advice, type AdviceKind, type AdvisedTool } from "./advice-item.ts";

/** What a set says about advice (config `advice`): `false` silences it; `ignore` lists tools (`create_invoice`) or a kind of one tool (`create_invoice:invented-id`). */
export interface AdviceOptions {
  readonly ignore?: readonly string[];
}

/**
 * Every piece of advice for `tools`, in the tools' order, then by kind (as ADVICE_KINDS lists
 * them), then by pointer. Deterministic; reads the schemas only.
 */
export function schemaAdvice(tools: readonly AdvisedTool[], options: AdviceOptions = {}): Advice[] {
  const ignored = new Set(options.ignore ?? []);
  const out: Advice[] = [];
  for (const tool of tools) {
    if (ignored.has(tool.name)) continue;
    const found = [...inventedIdAdvice(tool), ...undescribedEnumAdvice(tool), ...requiredDefaultAdvice(tool), ...outputBudgetAdvice(tool)];
    for (const kind of ADVICE_KINDS) {
      if (ignored.has(`${tool.name}:${kind}`)) continue;
      const ofKind = found.filter((advice) => advice.kind === kind).sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
      out.push(...ofKind);
    }
  }
  return out;
}
