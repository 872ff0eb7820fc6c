// What one operation that cannot become a tool turns into: the reason listed in the generation
// summary, and the error --strict fails with instead. A problem confined to one operation (a
// construct toolguard does not translate, or the document's own mistake in that operation) never
// refuses the rest of the document (docs/openapi.md, "What is skipped").
import { InputError, InputErrors } from "../../errors.ts";
import { Untranslatable } from "./untranslatable.ts";

export interface SkipReason {
  /** For the summary: what is wrong and, for the document's own mistakes, the fix. */
  readonly reason: string;
  /** What --strict reports instead of the skip. */
  readonly refusal: InputError;
}

/**
 * `pointer` is the operation's (or path item's) JSON Pointer; `name` the tool it would have been.
 * An error that is not an input error is a defect in toolguard: the operation is skipped all the
 * same, and its reason says so, so that one defect costs one tool and is reported, not the API.
 */
export function skipReason(file: string, name: string, pointer: string, error: unknown): SkipReason {
  if (error instanceof Untranslatable) {
    const reason = error.pointer === pointer ? error.message : `${error.message} (at #${error.pointer})`;
    return {
      reason,
      refusal: new InputError(
        { file, pointer },
        `operation ${name} cannot become a tool: ${reason}`,
        "fix the schema, or run without --strict to skip this operation",
      ),
    };
  }
  if (error instanceof InputErrors && error.errors.length > 0) return skipReason(file, name, pointer, error.errors[0]);
  if (error instanceof InputError) {
    // The operation is already named in the summary line; its label would say it twice.
    const message = error.message.replace(/^operation [^:]*\): /, "");
    const at = error.location.pointer !== "" && error.location.pointer !== pointer ? ` (at #${error.location.pointer})` : "";
    return { reason: `${message}${at}; fix: ${error.fix}`, refusal: error };
  }
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const reason = `toolguard failed on this operation (${what.split("\n", 1)[0]}); this is a defect in toolguard, please report it`;
  return {
    reason,
    refusal: new InputError({ file, pointer }, `operation ${name} cannot become a tool: ${reason}`, "run without --strict to skip this operation"),
  };
}
