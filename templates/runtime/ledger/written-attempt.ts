// An attempt as the ledger writes it: redacted (redact.ts) and capped (record-policy.ts). The
// attempt itself when nothing changes, which is the common case: nothing is allocated then.
import type { LedgerAttempt } from "./ledger.ts";
import { keysDeclared } from "./declared-keys.ts";
import { MAX_MESSAGE_CHARS, sha256, type RecordPolicy } from "./record-policy.ts";

/** The attempts as written; `attempts` itself when none changed (the common case allocates nothing). */
export function writtenAttempts(attempts: readonly LedgerAttempt[], policy: RecordPolicy): readonly LedgerAttempt[] {
  let written: LedgerAttempt[] | undefined;
  for (let index = 0; index < attempts.length; index++) {
    const attempt = attempts[index] as LedgerAttempt;
    const redacted = writtenAttempt(attempt, policy);
    if (redacted !== attempt) (written ??= attempts.slice(0, index)).push(redacted);
    else written?.push(attempt);
  }
  return written ?? attempts;
}

function writtenAttempt(attempt: LedgerAttempt, policy: RecordPolicy): LedgerAttempt {
  const redactor = policy.redactor;
  // An attempt with nothing but its raw text and maybe resolutions (most of them): only those can change.
  if (attempt.errors.length === 0 && attempt.coercions.length === 0 && attempt.question === undefined && attempt.raw.length <= policy.maxTextChars) {
    const resolutions = attempt.resolutions;
    if (!redactor) return attempt;
    if (
      redactor.rawIsKept(attempt.raw, attempt.failure === undefined, keysDeclared(attempt)) &&
      (resolutions === undefined || redactor.resolutions(resolutions) === resolutions)
    )
      return attempt;
  }
  let raw = attempt.raw;
  let redacted = 0;
  if (redactor) ({ text: raw, redacted } = redactor.raw(raw, attempt.failure === undefined && attempt.question === undefined, keysDeclared(attempt)));
  const errors = redactor ? redactor.errors(attempt.errors) : attempt.errors;
  const coercions = redactor ? redactor.coercions(attempt.coercions) : attempt.coercions;
  const resolutions = redactor ? redactor.resolutions(attempt.resolutions) : attempt.resolutions;
  const long = raw.length > policy.maxTextChars;
  const question = redactor ? redactor.question(attempt.question) : attempt.question;
  const same = errors === attempt.errors && coercions === attempt.coercions && resolutions === attempt.resolutions && question === attempt.question;
  if (!long && redacted === 0 && same && !hasLongText(attempt)) return attempt;
  return {
    raw: long ? raw.slice(0, policy.maxTextChars) : raw,
    ...(long ? { rawLength: raw.length, rawSha256: sha256(raw) } : {}),
    ...(redacted > 0 ? { redacted } : {}),
    finishReason: attempt.finishReason,
    failure: attempt.failure,
    errors: errors.map((error) => (error.message.length > MAX_MESSAGE_CHARS ? { ...error, message: cut(error.message) } : error)),
    coercions,
    ...(attempt.coercionsOmitted === undefined ? {} : { coercionsOmitted: attempt.coercionsOmitted }),
    absent: attempt.absent,
    resolutions,
    question: question && {
      field: question.field,
      ...(question.target === undefined ? {} : { target: question.target }),
      candidates: question.candidates.map((candidate) => ({ id: cut(candidate.id), label: cut(candidate.label) })),
    },
    guardMs: attempt.guardMs,
  };
}

function hasLongText(attempt: LedgerAttempt): boolean {
  for (const error of attempt.errors) if (error.message.length > MAX_MESSAGE_CHARS) return true;
  if (attempt.question)
    for (const candidate of attempt.question.candidates) if (candidate.label.length > MAX_MESSAGE_CHARS || candidate.id.length > MAX_MESSAGE_CHARS) return true;
  return false;
}

function cut(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length} characters)` : text;
}
