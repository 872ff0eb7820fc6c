// What a ledger entry writes about its arguments (the members after `repairs`): nothing when
// they are the passing attempt's raw text, `argumentsResolved` when a reader can derive them from
// that text and its resolutions, else the (redacted) value, or its length and hash past the cap.
// Computed when the entry is serialised (chain-record.ts), off the call's path.
import type { JsonValue } from "../contract/tool-spec.ts";
import type { ArgumentsSnapshot } from "./arguments-snapshot.ts";
import type { LedgerAttempt } from "./ledger.ts";
import { argumentsAreSafe } from "./arguments-safety.ts";
import { keysDeclared } from "./declared-keys.ts";
import type { EntryBody } from "./entry-text.ts";
import { sha256, type RecordPolicy } from "./record-policy.ts";

/** What an entry writes about its arguments, with nothing omitted: an `EntryBody` as it is. */
export interface ArgumentsPart extends EntryBody {
  readonly argumentFields: { readonly arguments?: JsonValue; readonly argumentsLength?: number; readonly argumentsSha256?: string };
}

const NO_FIELDS = Object.freeze({});

/** The arguments are the raw text's (or not written): nothing after `repairs`. */
export const UNCHANGED: ArgumentsPart = Object.freeze({ omitted: 0, argumentFields: NO_FIELDS, argumentMembers: "", resolved: false });

/** The arguments are the passing raw text with its resolutions applied: `argumentsResolved`, version 2. */
const RESOLVED: ArgumentsPart = Object.freeze({ omitted: 0, argumentFields: NO_FIELDS, argumentMembers: "", resolved: true });

/**
 * The arguments' members of an entry whose arguments differ from the raw text: `RESOLVED` (derived
 * from the line), the (redacted) value, or its length and hash past the cap. `all`: the chain's
 * attempts as made; `attempts`: as written (redacted, capped).
 */
export function argumentsPart(
  snapshot: ArgumentsSnapshot,
  policy: RecordPolicy | undefined,
  all: readonly LedgerAttempt[],
  attempts: readonly LedgerAttempt[],
): ArgumentsPart {
  const redactor = policy?.redactor;
  const last = all.at(-1);
  // The passing attempt is the chain's last: when its raw text provably holds no secret,
  // neither do the arguments derived from it (unless a reference added a secret key).
  const safe = !redactor || argumentsAreSafe(redactor, last?.raw, snapshot.addedKeys, last !== undefined && keysDeclared(last));
  // Only references changed the raw text, and the line holds that text and those resolutions
  // as they are (nothing cut or redacted in the passing attempt): readers derive the arguments.
  if (safe && last !== undefined && attempts.at(-1) === last && snapshot.resolvedFrom?.(last)) return RESOLVED;
  const value = snapshot.arguments();
  if (!safe) redactor?.valueInPlace(value);
  const text = JSON.stringify(value);
  if (text.length > (policy?.maxTextChars ?? Infinity)) {
    const argumentsSha256 = sha256(text);
    const argumentMembers = `,"argumentsLength":${text.length},"argumentsSha256":"${argumentsSha256}"`;
    return { omitted: 0, argumentFields: { argumentsLength: text.length, argumentsSha256 }, argumentMembers, resolved: false };
  }
  return { omitted: 0, argumentFields: { arguments: value }, argumentMembers: `,"arguments":${text}`, resolved: false };
}
