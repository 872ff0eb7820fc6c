// The idempotency alarm where operators look. A key that already ran with other arguments is the
// brief's "loud" conflict: the outcome tells the model, the counter and the ledger keep score,
// and this says it to a person, once per conflict, through the guard's logger. By default that
// is Node's own warning channel (process.emitWarning): on stderr like console.warn, but leaving
// stdout alone (an MCP stdio server's protocol), routable to any logger with
// `process.on("warning")` and filterable by its code, with no option set.
import type { GuardLogger } from "../contract/guard-logger.ts";

/** The warning's code, for `process.on("warning", (w) => w.code === ...)` and log queries. */
export const IDEMPOTENCY_CONFLICT_CODE = "TOOLGUARD_IDEMPOTENCY_CONFLICT";

/** The facts of one conflict. */
export interface IdempotencyConflict {
  readonly tool: string;
  readonly idempotencyKey: string;
  /** The fingerprint of the arguments refused, and of those the key already ran with. */
  readonly fingerprint: string;
  readonly storedFingerprint: string;
}

/** The sentence the logger and the span's status carry. */
export function conflictMessage(tool: string, key: string): string {
  return `toolguard: idempotency conflict on ${tool}: key ${JSON.stringify(key)} already ran with other arguments; this call was refused and nothing ran`;
}

/** Writes the alarm through `logger`, or as a process warning when none is given. Never throws. */
export function idempotencyAlarm(conflict: IdempotencyConflict, logger: GuardLogger | undefined): void {
  const message = conflictMessage(conflict.tool, conflict.idempotencyKey);
  const fields = {
    code: IDEMPOTENCY_CONFLICT_CODE,
    tool: conflict.tool,
    idempotencyKey: conflict.idempotencyKey,
    fingerprint: conflict.fingerprint,
    storedFingerprint: conflict.storedFingerprint,
  };
  try {
    if (logger) logger.warn(message, fields);
    else
      process.emitWarning(message, {
        type: "ToolguardWarning",
        code: IDEMPOTENCY_CONFLICT_CODE,
        detail: `fingerprint ${conflict.fingerprint}, stored ${conflict.storedFingerprint}`,
      });
  } catch {
    // A broken logger must not turn a refused call into a thrown one: the outcome, the counter
    // and the ledger entry still carry the conflict.
  }
}
