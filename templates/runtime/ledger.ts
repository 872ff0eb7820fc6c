// The ledger: one append-only record per repair chain, so repairs stop being silent.
// The sinks live beside this file: `ledger-jsonl.ts` (the durable default), `ledger-memory.ts`.
import type { Candidate } from "./api.ts";
import type { ArgumentError, Coercion, FailureClass } from "./outcome.ts";
import type { Resolution } from "./references.ts";
import type { JsonValue } from "./tool-spec.ts";

/** One attempt within a chain, as the model sent it and as the guard judged it. */
export interface LedgerAttempt {
  /** The raw arguments exactly as received (a parsed value is recorded as its JSON text). */
  readonly raw: string;
  readonly finishReason?: string;
  /** Absent when the attempt passed. */
  readonly failure?: FailureClass;
  readonly errors: readonly ArgumentError[];
  readonly coercions: readonly Coercion[];
  /** Reference fields resolved to identifiers, when the attempt got that far. */
  readonly resolutions?: readonly Resolution[];
  /** Present when the attempt's answer was a question: a reference matched several things. */
  readonly question?: { readonly field: string; readonly candidates: readonly Candidate[] };
  /** Milliseconds the guard spent on this attempt. */
  readonly guardMs: number;
}

/**
 * How a chain ended. `abandoned`: it failed, the model never came back within the chain's
 * lifetime, and the chain was evicted; `error`: the implementation threw.
 */
export type Verdict = "ok" | "repaired" | "rejected" | "ambiguous" | "error" | "abandoned";

/** One repair chain: every attempt at one tool within one turn, and how it ended. */
export interface LedgerEntry {
  /** Format version of the record. */
  readonly v: 1;
  readonly tool: string;
  readonly turn: string;
  /** ISO 8601 time the chain's first attempt arrived. */
  readonly startedAt: string;
  readonly verdict: Verdict;
  readonly attempts: readonly LedgerAttempt[];
  /** Attempts after the first. */
  readonly repairs: number;
  /** The arguments the implementation received, when it ran. */
  readonly arguments?: JsonValue;
  readonly idempotencyKey?: string;
}

/** Where ledger entries go. `append` must not block the call; failures surface in `flush`. */
export interface LedgerSink {
  append(entry: LedgerEntry): void;
  /** Resolves once every appended entry is durable; rejects if any could not be written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
