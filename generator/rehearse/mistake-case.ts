// One realistic model mistake on a real schema, and what the envelope must carry for it.
import type { Instruction, TextFix } from "./literal-repairer.ts";

/** What the envelope must carry: an instruction in the repairer's grammar, or words when no literal fix exists. */
export type Expected =
  | Instruction
  /** A missing fact: the error at `path` must tell the model to ask the user. */
  | { readonly op: "ask"; readonly path: string }
  /** A rule with no single fix (a bound): the error at `path` must state `text`. */
  | { readonly op: "mention"; readonly path: string; readonly text: string }
  /** A call that is not JSON: the envelope must carry the text fix `fix` (`resend` has no literal one). */
  | { readonly op: "text"; readonly fix: TextFix };

export interface CorpusCase {
  readonly id: string;
  /** Where the schema comes from (npm package and version). */
  readonly source: string;
  readonly tool: string;
  /** The class of mistake (issue 17's list and more). */
  readonly mistake: string;
  /** The arguments meant (for a syntactic mistake, the call the text spells). */
  readonly args: unknown;
  /** A syntactic mistake: the text sent instead of `args`' JSON. */
  readonly text?: string;
  readonly expect: Expected;
}

/** The arguments the case sent, as the repairer reads them; a text sent no arguments (undefined). */
export function sentOf(entry: CorpusCase): unknown {
  return entry.text === undefined ? entry.args : undefined;
}

/** Whether a literal repair can fix the case in one round: the expected fix is an instruction. */
export function repairable(entry: CorpusCase): boolean {
  return entry.expect.op !== "ask" && entry.expect.op !== "mention" && !(entry.expect.op === "text" && entry.expect.fix === "resend");
}
