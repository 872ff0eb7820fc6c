// The ledger's record: one entry per repair chain, and the sink entries go to. Types only, so
// that the public API (which takes a sink) and the ledger stage share them without a cycle.
import type { ArgumentError, Coercion, FailureClass } from "./outcome.ts";
import type { Candidate, Resolution } from "./resolution.ts";
import type { JsonValue } from "./tool-spec.ts";

/** One attempt within a chain, as the model sent it and as the guard judged it. */
export interface LedgerAttempt {
  /**
   * The raw arguments as received (a parsed value is recorded as its JSON text), after
   * redaction, cut to the entry's text cap (docs/ledger.md).
   */
  readonly raw: string;
  /** Present when `raw` was cut: the length of the whole text, in UTF-16 units. */
  readonly rawLength?: number;
  /** Present when `raw` was cut: SHA-256 hex of the whole (redacted) text. */
  readonly rawSha256?: string;
  /** Present when secret values were replaced in `raw` (how many; 1 for a text replaced whole). */
  readonly redacted?: number;
  readonly finishReason?: string;
  /** Absent when the attempt passed. */
  readonly failure?: FailureClass;
  readonly errors: readonly ArgumentError[];
  /** The first `MAX_COERCION_RECORDS` (100) coercions applied; `coercionsOmitted` counts the rest. */
  readonly coercions: readonly Coercion[];
  /** Present when more coercions were applied than `coercions` lists: how many more. */
  readonly coercionsOmitted?: number;
  /**
   * Nulls removed before validation because they stood for omitted optional fields (calls made
   * through an OpenAI strict schema; see `CallContext.absentNulls`), by JSON Pointer.
   */
  readonly absent?: readonly string[];
  /** Reference fields resolved to identifiers, when the attempt got that far. */
  readonly resolutions?: readonly Resolution[];
  /** Present when the attempt's answer was a question: a reference matched several things. */
  readonly question?: {
    readonly field: string;
    /** The property the chosen identifier is written to. */
    readonly target?: string;
    readonly candidates: readonly Candidate[];
  };
  /** Milliseconds the guard spent on this attempt; only when asked (`implement(impl, {timing: true})`). */
  readonly guardMs?: number;
}

/**
 * Where a chain stands. `open`: it failed or asked a question and waits for the model's next
 * attempt (a later entry for the same chain supersedes it); the others are final. `abandoned`:
 * it failed and the model never came back within the chain's lifetime; `ambiguous`: it ended on
 * an unanswered question; `error`: the implementation or a resolver threw; `ledger_unavailable`:
 * fail-closed mode refused to run the implementation because the ledger could not be written;
 * `chain_store_unavailable`: not a chain but a mark (no attempts, `chainStore` set): the shared
 * chain store failed, and this call's chain was bounded by its process alone.
 */
export type Verdict =
  | "open"
  | "ok"
  | "repaired"
  | "rejected"
  | "ambiguous"
  | "error"
  | "abandoned"
  | "replayed"
  | "conflict"
  | "ledger_unavailable"
  | "chain_store_unavailable";

/**
 * One repair chain: every attempt at one tool within one turn, and how it ended. A chain is
 * written as soon as an attempt fails (verdict `open`), so a crash between attempts loses
 * nothing, and again when it ends; the last entry of a chain is its record.
 */
export interface LedgerEntry {
  /**
   * Format version of the record: 2 when the line uses `argumentsResolved` (which a version-1
   * reader would misread), else 1. An entry read back from a version-3 line (a clean entry whose
   * raw text the line embeds as JSON) has 3, and the members that line leaves out filled in.
   * Readers read every version.
   */
  readonly v: 1 | 2 | 3;
  /** Identifies the chain: entries with the same id are successive states of one chain. */
  readonly chain: string;
  readonly tool: string;
  readonly turn: string;
  /** ISO 8601 time the chain's first attempt arrived. */
  readonly startedAt: string;
  readonly verdict: Verdict;
  readonly attempts: readonly LedgerAttempt[];
  /** Attempts after the first. */
  readonly repairs: number;
  /**
   * The arguments the implementation received, when it ran and they differ from the passing
   * attempt's raw text (coercions or resolved references changed them); redacted.
   */
  readonly arguments?: JsonValue;
  /**
   * Present (`true`, version 2) instead of `arguments` when the arguments are the passing
   * attempt's `raw` with its `resolutions` applied and nothing else: each reference field
   * replaced by its target holding the resolved id. `entryArguments` derives them.
   */
  readonly argumentsResolved?: true;
  /** Present when `arguments` was too long to write: its JSON text's length and SHA-256 hex. */
  readonly argumentsLength?: number;
  readonly argumentsSha256?: string;
  /** The key, when the implementation or the caller read it (computing it costs the ledger nothing then). */
  readonly idempotencyKey?: string;
  /** Attempts left out of `attempts` to keep the entry under its cap (the first and last are kept). */
  readonly attemptsOmitted?: number;
  /** On a `chain_store_unavailable` mark: why the shared chain store did not answer. */
  readonly chainStore?: { readonly unavailable: string };
}

/** Counters of a sink since it was created (what `JsonlFileSink#stats`, `flush` and `close` report). */
export interface LedgerSinkStats {
  readonly appended: number;
  readonly written: number;
  /** Entries refused because the queue was full, or appended after `close()`: lost, and counted here. */
  readonly dropped: number;
  /** Entries waiting: queued, being written, or waiting for a retry. */
  readonly pending: number;
  /** Writes that failed (each retried). */
  readonly failedWrites: number;
  readonly rotations: number;
  /** Lines that retention removed when this sink rotated (other writers' lines included): lost to the ledger, and counted. */
  readonly rotatedAway?: number;
  /** The most entries ever queued at once. */
  readonly peakQueued: number;
  /** Under `overflow: "wait"`: the most calls ever held back at once (at most `maxWaiting`). */
  readonly peakWaiting?: number;
  /** Under `overflow: "wait"`: calls answered at once because `maxWaiting` calls were already held. */
  readonly notHeld?: number;
}

/** Where ledger entries go. `append` must not block the call; failures surface in `flush`. */
export interface LedgerSink {
  append(entry: LedgerEntry): void;
  /**
   * Resolves once every appended entry is durable (with the sink's counters, when it keeps any);
   * rejects only while entries are still waiting to be written (a failing disk: they are kept and
   * retried). Entries dropped are counted and reported, never a rejection: a caller that does not
   * catch must not end its process over a record that is already lost.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a sink written as `async flush(): Promise<void>` must still conform (the interface grew additively).
  flush(): Promise<LedgerSinkStats | void>;
  /** `flush`, then release the sink; the same resolution and rejection. */
  // biome-ignore lint/suspicious/noConfusingVoidType: as `flush`.
  close(): Promise<LedgerSinkStats | void>;
  /**
   * Optional: writes the entry before returning (and syncs it, if the sink syncs). The guard uses
   * it for every entry of a chain that holds a failure (a failed attempt, a repair, a refusal, a
   * reference question), so that no crash loses a repair record once its envelope is returned.
   * It must not throw; an entry it cannot write it keeps and retries as `append` would. A sink
   * without it gets those entries through `append`, batched like the rest.
   */
  appendNow?(entry: LedgerEntry): void;
  /**
   * Optional backpressure: a promise while the sink's queue is over its bound (the guard's
   * outcome waits for it), `undefined` otherwise.
   */
  backpressure?(): Promise<void> | undefined;
  /** Optional, for `durable` guards: resolves once every entry appended so far is on disk. */
  written?(): Promise<void>;
  /** Optional, for `failClosed` guards: whether an entry appended now can be written. */
  writable?(): boolean | Promise<boolean>;
}
