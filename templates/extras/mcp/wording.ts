// The words an MCP client reads. The guard speaks of turns, which MCP does not have: here a
// chain is the calls to one tool from one caller until one succeeds, a refusal lasts a known
// time, and a call with correct arguments is always run (it starts a new chain), so the
// envelopes say what a client can actually do.
import { LAST_ATTEMPT_SENTENCE } from "../../runtime/explain/envelope.ts";
import { TOO_MANY_QUESTIONS_OPENING } from "../../runtime/resolve/references.ts";
import type { ArgumentsRejectedOutcome, FailureClass, Outcome, ValidationFailedOutcome } from "../../runtime/index.ts";

/** A failed outcome as an MCP client reads it; other outcomes unchanged. */
export function mcpWording<Result>(outcome: Outcome<Result>, windowMs: number): Outcome<Result> {
  if (outcome.status === "validation_failed") return { ...outcome, errors: chainErrors(outcome.tool, outcome.errors), detail: repairDetail(outcome, windowMs) };
  if (outcome.status === "arguments_rejected")
    return refusal(outcome.tool, outcome.failure, chainErrors(outcome.tool, outcome.errors), outcome.attempts, windowMs);
  return outcome;
}

/**
 * The errors with the one the guard words by its turn, a question about references past the free
 * ones, said of the chain instead: the calls to the tool since its last success.
 */
function chainErrors(tool: string, errors: ArgumentsRejectedOutcome["errors"]): ArgumentsRejectedOutcome["errors"] {
  if (!errors.some((error) => error.rule === "too_many_questions")) return errors;
  return errors.map((error) =>
    error.rule === "too_many_questions" && error.message.startsWith(TOO_MANY_QUESTIONS_OPENING)
      ? { ...error, message: `the calls to ${tool} since its last success already asked ${error.message.slice(TOO_MANY_QUESTIONS_OPENING.length)}` }
      : error,
  );
}

/** The failed attempt as a chain counted across replicas saw it: at least as strict as `local`. */
export function stricter(
  local: ValidationFailedOutcome | ArgumentsRejectedOutcome,
  failures: number,
  budget: number,
  windowMs: number,
): ValidationFailedOutcome | ArgumentsRejectedOutcome {
  if (failures >= budget) return refusal(local.tool, local.failure, local.errors, Math.max(local.attempts, failures), windowMs);
  if (local.status === "arguments_rejected") return local;
  return { ...local, attempts: Math.max(local.attempts, failures), repairsLeft: Math.min(local.repairsLeft, budget - failures) };
}

function repairDetail(outcome: ValidationFailedOutcome, windowMs: number): string {
  const base = outcome.detail.endsWith(LAST_ATTEMPT_SENTENCE) ? outcome.detail.slice(0, -LAST_ATTEMPT_SENTENCE.length) : outcome.detail;
  if (outcome.repairsLeft !== 1) return base;
  return `${base} This is the last attempt: if it fails too, ${outcome.tool} refuses calls whose arguments fail for ${minutes(windowMs)}; a call with correct arguments is still run.`;
}

function refusal(
  tool: string,
  failure: FailureClass,
  errors: ArgumentsRejectedOutcome["errors"],
  attempts: number,
  windowMs: number,
): ArgumentsRejectedOutcome {
  return {
    status: "arguments_rejected",
    tool,
    failure,
    errors,
    detail:
      `The arguments for ${tool} failed ${attempts} times in a row, so ${tool} now refuses calls whose arguments fail, ` +
      `for ${minutes(windowMs)} after the last counted failure. Do not resend these arguments. Ask the user for the missing or unclear ` +
      `information the errors name, then call ${tool} with the complete, corrected arguments: a call with correct arguments is run at once.`,
    attempts,
  };
}

function minutes(ms: number): string {
  const whole = Math.round(ms / 60_000);
  if (whole >= 1) return whole === 1 ? "1 minute" : `${whole} minutes`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}
