// Which tools `generate` skips when emitting them fails, and the reason it prints: one rule for
// `generate` (generate.ts) and `rehearse`, which lints each tool before rehearsing it, so both
// commands serve and skip the same tools.
import { InputError, InputErrors } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { lintAjv } from "../ajv/instances.ts";
import { lintSchema } from "./lint-schema.ts";

/**
 * Why `tool` is skipped when emitting it threw `error`, or undefined when the error stops the
 * run instead. An operation of a vendor's document is one tool among many, in a file the team
 * does not edit: what stops its tool skips it, as the reader skips what it cannot read. A tool
 * file is the team's own, and its error stops the run, unless toolguard cannot enforce the
 * schema as written (`skipsTool`: a published MCP server's pattern with a backreference), which
 * skips the tool there too. `--strict` makes every one an error.
 */
export function emitSkipReason(tool: ToolDescription, error: unknown, strict: boolean | undefined): string | undefined {
  const problems = error instanceof InputError ? [error] : error instanceof InputErrors ? error.errors : undefined;
  if (problems === undefined || strict === true) return undefined;
  if (!tool.http && !problems.every((problem) => problem.skipsTool)) return undefined;
  return problems.map((problem) => skipReason(problem, tool)).join("; ");
}

/** The lint `generate` runs first on each tool: why rehearse skips it as `generate` would, if it does. */
export function lintSkipReason(tool: ToolDescription, strict: boolean | undefined): string | undefined {
  try {
    lintSchema(tool, lintAjv(tool.dialect));
    return undefined;
  } catch (error) {
    const reason = emitSkipReason(tool, error, strict);
    if (reason === undefined) throw error;
    return reason;
  }
}

/** An emitter's error as a skip reason: what, where in the document (when not the operation itself), and the fix. */
function skipReason(error: InputError, tool: ToolDescription): string {
  const elsewhere = error.location.pointer !== "" && error.location.pointer !== tool.source.pointer;
  const problem = error.message.replace(/^tool [^:]*: /, ""); // the skip line names the tool already
  return `${problem}${elsewhere ? ` (at #${error.location.pointer})` : ""}; fix: ${error.fix}`;
}
