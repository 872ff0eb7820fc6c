// Attempts whose errors are put in place only when an entry that holds them is first read: a
// failed attempt kept by an open chain (call/stored-attempt.ts) holds a placeholder until then,
// so that keeping it costs no accessor on the call's path. Every read of an entry's attempts
// (ledger/chain-record.ts: serialising it, `attempts`, `toJSON`) settles them first.
import type { LedgerAttempt } from "./ledger.ts";

/** An attempt that puts its errors in place when asked; any other attempt has them already. */
interface DeferredErrors {
  settleErrors?(): void;
}

export function settleErrors(attempts: readonly LedgerAttempt[]): void {
  for (const attempt of attempts) (attempt as DeferredErrors).settleErrors?.();
}
