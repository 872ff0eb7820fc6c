// The words the model reads after a failed attempt. `detail` pins the protocol so a model does
// not guess it: resend the complete object (not a patch), or stop and ask the user.
import type { ArgumentError, ArgumentsRejectedOutcome, FailureClass, IdempotencyConflictOutcome, ValidationFailedOutcome } from "../contract/outcome.ts";

/** What every failure envelope states: the failure's class, its errors, the chain's attempts so far. */
export interface FailureFacts {
  readonly failure: FailureClass;
  readonly errors: readonly ArgumentError[];
  readonly attempts: number;
}

export function validationFailed(tool: string, facts: FailureFacts, repairsLeft: number, truncated: boolean): ValidationFailedOutcome {
  const { failure, errors, attempts } = facts;
  const detail = repairDetail(tool, truncated ? 0 : failure === "syntactic" ? 2 : 4, repairsLeft === 1);
  return { status: "validation_failed", tool, failure, errors, detail, attempts, repairsLeft };
}

/** Ends the detail of an envelope whose failing next attempt is refused (adapters may reword it). */
export const LAST_ATTEMPT_SENTENCE = " This is the last attempt this turn.";

/** The six details of a tool, written once per tool rather than once per failed call. */
const DETAILS = new Map<string, readonly string[]>();

function repairDetail(tool: string, kind: 0 | 2 | 4, last: boolean): string {
  let details = DETAILS.get(tool);
  if (details === undefined) {
    const texts = [
      `Your arguments for ${tool} were cut off before they were complete. Call ${tool} again with the complete argument object, written shorter; do not continue the old text.`,
      `The arguments for ${tool} could not be read as one unambiguous JSON object. Call ${tool} again with the complete argument object, as plain JSON and nothing else.`,
      `Fix every field listed in errors and call ${tool} again with the complete argument object, not a partial patch.`,
    ];
    details = texts.flatMap((text) => [text, text + LAST_ATTEMPT_SENTENCE]);
    // Tool names are the package's own, so this holds one entry per tool that ever failed.
    DETAILS.set(tool, details);
  }
  return details[kind + (last ? 1 : 0)] as string;
}

export function argumentsRejected(tool: string, facts: FailureFacts, alreadyRejected: boolean): ArgumentsRejectedOutcome {
  const { failure, errors, attempts } = facts;
  const why = alreadyRejected
    ? `${tool} already refused its arguments in this turn and accepts no more calls in it.`
    : `The arguments for ${tool} failed ${attempts} times in this turn; ${tool} accepts no more calls in it.`;
  // A call refused only for the spent budget was not checked: its one error names no field, so
  // the detail points at the errors of the attempts that spent the budget instead.
  const unchecked = errors.every((error) => error.rule === "repair_budget");
  const ask = unchecked
    ? `These arguments were not checked. Do not retry. Ask the user for the missing or unclear information the errors of the earlier ${tool} calls named, then call ${tool} in a new turn.`
    : `Do not retry. Ask the user for the missing or unclear information the errors name, then call ${tool} in a new turn.`;
  return {
    status: "arguments_rejected",
    tool,
    failure,
    errors,
    detail: `${why} ${ask}`,
    attempts,
  };
}

/** The call's idempotency key already ran with other arguments: nothing ran this time. */
export function idempotencyConflict(tool: string, key: string, attempts: number): IdempotencyConflictOutcome {
  return {
    status: "idempotency_conflict",
    tool,
    idempotencyKey: key,
    detail:
      `${tool} already ran for this request with different arguments, so this call was not run. ` +
      "Do not resend it: tell the user what was already done, and ask before making a change.",
    attempts,
  };
}
