// Which ledger entries are clean, decided once when the entry is made (chain-record.ts): a
// first attempt that passed with nothing but its raw text (or that text and one resolution its
// arguments apply) is written from fixed pieces (entry-text.ts `writeCleanEntry`,
// `writeResolvedEntry`) with nothing else read; what is left to ask when it is written is the
// tool's, not the entry's: its text cap and whether its redactor keeps the text as it is.
import type { Resolution } from "../contract/resolution.ts";
import type { LedgerAttempt } from "./ledger.ts";
import type { ArgumentsSnapshot } from "./arguments-snapshot.ts";
import { argumentsAreSafeAdding } from "./arguments-safety.ts";
import type { RecordPolicy } from "./record-policy.ts";

/**
 * Whether an attempt records nothing beyond its raw text, its finish reason and its resolutions:
 * no error, coercion, cut or hash of the text, failure, absent field, question or timing. The one
 * list of what makes an attempt's line more than the common shapes, for `shapeOf` here and for
 * the entry's own test when it is made (`cleanShapeOf` below): a field added to
 * `LedgerAttempt` that a line writes goes here.
 */
export function recordsOnlyRaw(attempt: LedgerAttempt): boolean {
  return (
    attempt.errors.length === 0 &&
    attempt.coercions.length === 0 &&
    attempt.failure === undefined &&
    attempt.question === undefined &&
    attempt.coercionsOmitted === undefined &&
    attempt.absent === undefined &&
    attempt.guardMs === undefined &&
    attempt.rawLength === undefined &&
    attempt.rawSha256 === undefined &&
    attempt.redacted === undefined
  );
}

/** `cleanShapeOf`'s answers: not clean; clean; clean but for one resolution its arguments apply. */
export const NOT_CLEAN = 0;
export const CLEAN = 1;
export const CLEAN_RESOLVED = 2;

/**
 * Whether an attempt is clean: it passed with nothing but its raw text (no errors, coercions,
 * finish reason or any other member) and its arguments are that text (`snapshot.changed` false),
 * or that text with one resolution applied (`snapshot.resolvedFrom`: a resolved call, read by the
 * reader from the line). Its line is the entry's head, the turn, the time and the raw text (and
 * the resolution) between fixed pieces, the bytes `writeEntry` gives it. Cheap member reads only:
 * this runs on the call's path.
 */
export function cleanShapeOf(attempt: LedgerAttempt, snapshot: ArgumentsSnapshot | undefined): typeof NOT_CLEAN | typeof CLEAN | typeof CLEAN_RESOLVED {
  // The fixed pieces hold no finish reason: an attempt with one takes the general writer.
  if (attempt.finishReason !== undefined || !recordsOnlyRaw(attempt)) return NOT_CLEAN;
  const resolutions = attempt.resolutions;
  if (resolutions === undefined) return snapshot?.changed === true ? NOT_CLEAN : CLEAN;
  return resolutions.length === 1 && snapshot?.resolvedFrom?.(attempt) === true ? CLEAN_RESOLVED : NOT_CLEAN;
}

/**
 * Whether a clean attempt's `raw` is written as it is: within the text cap, and kept by the
 * redactor (written-attempt.ts asks the same). `declared`: its keys are all declared.
 */
export function keptAsItIs(raw: string, policy: RecordPolicy | undefined, declared: boolean): boolean {
  if (policy === undefined) return true;
  if (raw.length > policy.maxTextChars) return false;
  const redactor = policy.redactor;
  return redactor === undefined || redactor.rawIsKept(raw, true, declared);
}

/** Whether a clean resolved entry's resolution is written as it is and its arguments are left out (arguments-part.ts `RESOLVED`). */
export function resolvedAsItIs(raw: string, resolutions: readonly Resolution[], policy: RecordPolicy | undefined, declared: boolean): boolean {
  const redactor = policy?.redactor;
  if (redactor === undefined) return true;
  if (redactor.resolutions(resolutions) !== resolutions) return false;
  return argumentsAreSafeAdding(redactor, raw, (resolutions[0] as Resolution).target, declared);
}
