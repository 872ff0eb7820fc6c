// The shape of one piece of advice and the kinds there are: what every advice module and the
// config (which checks `advice.ignore`) share, without the modules themselves.
import type { ToolDescription } from "../ir.ts";

/** What a piece of advice is about; also the name `advice.ignore` silences it by (`tool:kind`). */
export type AdviceKind = "invented-id" | "undescribed-enum" | "required-default" | "output-budget";

export const ADVICE_KINDS: readonly AdviceKind[] = ["invented-id", "undescribed-enum", "required-default", "output-budget"];

/** One piece of advice about one place in one tool's input schema. */
export interface Advice {
  readonly tool: string;
  readonly kind: AdviceKind;
  /** The file the tool came from, relative to the schema folder (the tool's `source.file`). */
  readonly file: string;
  /** The JSON Pointer of the tool inside that file (`""` for a tool file, the operation in an OpenAPI document). */
  readonly toolPointer: string;
  /** The JSON Pointer (RFC 6901) of the place in the tool's input schema (`/properties/customer_id`; `""` for the whole schema). */
  readonly pointer: string;
  /** What the schema shows there, in a few words. */
  readonly finding: string;
  /** The change at that place that helps. */
  readonly change: string;
}

/** The part of a tool description the advice reads. */
export type AdvisedTool = Pick<ToolDescription, "name" | "inputSchema" | "references" | "source">;

/** An advice of `kind` about `tool` at `pointer`. */
export function adviceAt(tool: AdvisedTool, kind: AdviceKind, pointer: string, finding: string, change: string): Advice {
  return { tool: tool.name, kind, file: tool.source.file, toolPointer: tool.source.pointer, pointer, finding, change };
}
