// Whether an envelope carries the fix a case expects: the instruction, in the literal repairer's
// grammar, at the right pointer; for a missing fact, "ask the user" there; for a rule with no
// single fix, the rule's text there. `sent` is the call the errors are about: an instruction that
// names no value (a secret's list of one: "send its only item alone") is read against it.
import type { Expected } from "../mistake-case.ts";
import { type EnvelopeError, instructionsOf, textFixesOf } from "../literal-repairer.ts";

export function carries(expected: Expected, errors: readonly EnvelopeError[], sent?: unknown): boolean {
  switch (expected.op) {
    case "ask":
      return errors.some((error) => error.path === expected.path && /ask the user/.test(error.message));
    case "text":
      return errors.some((error) => textFixesOf(error).includes(expected.fix));
    case "mention":
      // A bound stated in other words counts: `<=10`, `<= 10` and `at most 10` say the same.
      return errors.some((error) => error.path === expected.path && boundText(error.message).includes(boundText(expected.text)));
    default: {
      // A move is said either where the value is (unknown field) or where it belongs (missing field).
      const at = expected.op === "move" ? [expected.from, expected.to] : [expected.path];
      return errors.some(
        (error) => at.includes(error.path) && instructionsOf(error, sent).some((instruction) => JSON.stringify(instruction) === JSON.stringify(expected)),
      );
    }
  }
}

function boundText(text: string): string {
  return text.replaceAll("at most ", "<=").replaceAll("at least ", ">=").replace(/\s+/g, "");
}
