// What a ledger entry is handed of the arguments the implementation received (call/ok-result.ts
// makes it): derived on demand, when the entry is serialised, never on the call's path.
import type { JsonValue } from "../contract/tool-spec.ts";
import type { LedgerAttempt } from "./ledger.ts";

/** The arguments the implementation received, and their key, derived on demand. */
export interface ArgumentsSnapshot {
  /** A fresh copy of the arguments: parsed, coerced, references resolved. */
  arguments(): JsonValue;
  /** `args`, when given, must be a fresh result of `arguments()`. */
  key(args?: JsonValue): string;
  /** The key if something already derived it; never computes it. */
  readonly keyIfRead: string | undefined;
  /** Whether the arguments differ from the passing attempt's raw text (coercions, resolutions). */
  readonly changed: boolean;
  /**
   * Whether the arguments are `attempt`'s raw text parsed with its resolutions applied and
   * nothing else: a reader derives them from the line (`argumentsResolved`), so they are not written.
   */
  resolvedFrom?(attempt: LedgerAttempt): boolean;
  /** The properties references were resolved into: keys the raw text does not have. */
  readonly addedKeys: readonly string[];
}
