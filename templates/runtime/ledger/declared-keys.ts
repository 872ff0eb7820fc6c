// How the call tells the ledger that a passing attempt's raw text holds only keys its schema
// declares, so that the ledger can keep the text without scanning it for secret names (the scan
// was a sixth of a line on GitHub's bodies, whose objects are open). The tool's generated hazard
// walk finds it out on the valid path anyway (parse/json-hazards.ts `walkedOnlyDeclaredKeys`).
//
// The mark is the identity of the record's empty `errors` list: it costs the call nothing, it is
// invisible in the line (`[]` either way) and to every reader, and it is lost by any copy that
// builds its own list. The one rule: a copy of a record that changes `raw` builds its own
// `errors` (every copy in the runtime does: a question, a refusal, the ledger's own caps).
import type { ArgumentError } from "../contract/outcome.ts";
import type { LedgerAttempt } from "../contract/ledger-entry.ts";

/** The `errors` of a passing attempt whose every key is one the schema declares where it is. */
export const NO_ERRORS_KEYS_DECLARED: readonly ArgumentError[] = Object.freeze([]);

/**
 * The `errors` of a passing attempt whose raw text `JSON.parse` read whole, as it stands (the
 * guard's own parse: parse/parse.ts never extracts, completes or repairs a text), and whose keys
 * are not all known to be declared. `NO_ERRORS_KEYS_DECLARED` says the same and more.
 */
export const NO_ERRORS_PARSED: readonly ArgumentError[] = Object.freeze([]);

/**
 * Whether `attempt` passed with a raw text that is one whole JSON text, as the guard's parse read
 * it: what lets a version-3 line embed the text as a JSON value (clean-entry.ts). A record made
 * any other way (a sink user's, a test's) builds its own `errors` and is not taken for one.
 */
export function parsedWhole(attempt: LedgerAttempt): boolean {
  const errors = attempt.errors;
  return (errors === NO_ERRORS_PARSED || errors === NO_ERRORS_KEYS_DECLARED) && attempt.failure === undefined && attempt.question === undefined;
}

/** Whether `attempt` passed and its raw text holds only keys the tool's schema declares. */
export function keysDeclared(attempt: LedgerAttempt): boolean {
  return attempt.errors === NO_ERRORS_KEYS_DECLARED && attempt.failure === undefined && attempt.question === undefined;
}
