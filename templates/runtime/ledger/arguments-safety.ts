// Whether the arguments an entry would write can hold a secret, asked once per entry whose
// arguments differ from its raw text: the redactor's answer, with what depends on the tool's
// added keys alone (the targets references resolve into) kept per key set.
import type { Redactor } from "./redact.ts";

/** Per redactor and set of added keys: [`validatedIsSafe`, `argumentsAreSafe` of a text naming no secret]. */
const ADDED_KEYS: WeakMap<Redactor, Map<string, readonly [boolean, boolean]>> = new WeakMap();

/**
 * `redactor.argumentsAreSafe(raw, addedKeys)`, with the part that depends on the added keys alone
 * worked out once per tool and key set: splitting the keys into words was a tenth of the line of
 * a call whose references were resolved. The raw text's own scan is the redactor's (`rawIsKept`),
 * skipped as for the raw text itself when `keysDeclared` (declared-keys.ts): the tool's walk ran
 * on the coerced value, so every key of the arguments is a declared one or an added one, and the
 * added keys are checked here.
 */
export function argumentsAreSafe(redactor: Redactor, raw: string | undefined, addedKeys: readonly string[], keysDeclared = false): boolean {
  const key = addedKeys.length === 1 ? (addedKeys[0] as string) : addedKeys.join("\u0000");
  return safeGiven(answerOf(redactor, key, addedKeys), redactor, raw, keysDeclared);
}

/** `argumentsAreSafe` with one added key (a resolved call's line): no list made unless its answer is not kept yet. */
export function argumentsAreSafeAdding(redactor: Redactor, raw: string, addedKey: string, keysDeclared: boolean): boolean {
  return safeGiven(answerOf(redactor, addedKey, undefined), redactor, raw, keysDeclared);
}

/** The kept answer for the added keys joined as `key` (`addedKeys`, or `[key]` when undefined). */
function answerOf(redactor: Redactor, key: string, addedKeys: readonly string[] | undefined): readonly [boolean, boolean] {
  let known = ADDED_KEYS.get(redactor);
  if (known === undefined) ADDED_KEYS.set(redactor, (known = new Map()));
  let answer = known.get(key);
  if (answer === undefined) {
    const keys = addedKeys ?? [key];
    answer = [redactor.validatedIsSafe(keys), redactor.argumentsAreSafe("", keys)];
    if (known.size < 1024) known.set(key, answer);
  }
  return answer;
}

function safeGiven(answer: readonly [boolean, boolean], redactor: Redactor, raw: string | undefined, keysDeclared: boolean): boolean {
  return answer[0] || (raw !== undefined && answer[1] && redactor.rawIsKept(raw, keysDeclared, keysDeclared));
}
