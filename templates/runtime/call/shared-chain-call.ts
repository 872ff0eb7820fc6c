// `implement(impl, { chains })`: a tool's repair chains counted in a shared store as well as in
// the process (docs/replicas.md), for callers without the MCP adapter. The guard judges each
// attempt with its own chain first, so the envelope never waits on the store; the shared count
// can then only make the outcome stricter (a `validation_failed` with fewer repairs left, or an
// `arguments_rejected` once the chain's budget is spent across replicas), never looser. A store
// that fails or does not answer leaves the local bound, a warning, a counter and a ledger mark.
import type { CallContext } from "../contract/api.ts";
import type { ChainCounter } from "../contract/chain-counter.ts";
import type { ArgumentsRejectedOutcome, Outcome, ValidationFailedOutcome } from "../contract/outcome.ts";
import type { LedgerSink } from "../contract/ledger-entry.ts";
import { argumentsRejected, LAST_ATTEMPT_SENTENCE } from "../explain/envelope.ts";
import { markChainStoreOutage } from "../ledger/store-mark.ts";
import { GuardedCounter } from "./shared-chains.ts";

/** How long a shared chain lives after its last counted failure: the guard's own turns live as long. */
export const SHARED_CHAIN_WINDOW_MS: number = 5 * 60_000;

type Call<Result> = (raw: unknown, context: CallContext) => Promise<Outcome<Result>>;

/** `call` with its chains also counted in `counter`, keyed on the turn and the tool. */
export function sharedChainCall<Result>(tool: string, call: Call<Result>, counter: ChainCounter, ledger: () => LedgerSink): Call<Result> {
  if (typeof counter?.fail !== "function" || typeof counter.close !== "function")
    throw new TypeError(`toolguard: ${tool}: the chains option must be a ChainCounter (fail and close), such as openPostgresStores(url).chains`);
  const chains = new GuardedCounter(counter);
  return async (raw, context) => {
    const outcome = await call(raw, context);
    const key = JSON.stringify([context.turn, tool]);
    if (outcome.status === "ok") {
      // Awaited: the caller's next call, on whichever replica, must find the chain closed.
      const down = await chains.close(key);
      if (down !== undefined) markChainStoreOutage(ledger(), tool, context.turn, down);
      return outcome;
    }
    // A refusal of this process's own chain is already the strictest answer, and is not counted:
    // the chain it refuses may be one another replica's success has closed since.
    if (outcome.status !== "validation_failed") return outcome;
    const shared = await chains.fail(key, budgetOf(outcome), SHARED_CHAIN_WINDOW_MS);
    if (!shared.ok) {
      markChainStoreOutage(ledger(), tool, context.turn, shared.reason);
      return outcome;
    }
    return stricter(outcome, shared.tally.failures, shared.tally.budget);
  };
}

/** The budget a chain's first failure sets: what the guard's envelope says this chain allows. */
function budgetOf(local: ValidationFailedOutcome): number {
  return local.attempts + local.repairsLeft;
}

/** The local outcome, made as strict as the shared count says: never looser. */
function stricter(local: ValidationFailedOutcome, failures: number, budget: number): ValidationFailedOutcome | ArgumentsRejectedOutcome {
  if (failures >= budget)
    return argumentsRejected(local.tool, { failure: local.failure, errors: local.errors, attempts: Math.max(local.attempts, failures) }, false);
  const repairsLeft = Math.min(local.repairsLeft, budget - failures);
  if (repairsLeft === local.repairsLeft && failures <= local.attempts) return local;
  // The last repair: the envelope says so, as the guard's own does.
  const detail = repairsLeft === 1 && !local.detail.endsWith(LAST_ATTEMPT_SENTENCE) ? local.detail + LAST_ATTEMPT_SENTENCE : local.detail;
  return { ...local, attempts: Math.max(local.attempts, failures), repairsLeft, detail };
}
