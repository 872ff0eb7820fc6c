// How the JSONL sink tells of what went wrong: every write failure, and drops at most once per
// 10 s (each warning saying how many since the last), as a process warning
// (`ToolguardLedgerWarning`) and through `onError`; drops also counted, and sent to telemetry
// (`toolguard.ledger.lost`). Write failures are kept until `flush()` reports them.
import { countLedgerLost } from "../telemetry/telemetry.ts";
import { messageOf, plural } from "./jsonl-options.ts";

/** The least time between two warnings about drops. */
const DROP_WARNING_MS = 10_000;

export class SinkReports {
  readonly #path: string;
  readonly #onError: ((error: Error) => void) | undefined;
  /** Entries dropped since the sink was made. */
  dropped = 0;
  /** Write failures not yet reported by `flush()`. */
  #failures: Error[] = [];
  /** Drops not yet warned about, and when the next warning may be raised (ms). */
  #unwarned = 0;
  #nextDropWarning = 0;

  constructor(path: string, onError: ((error: Error) => void) | undefined) {
    this.#path = path;
    this.#onError = onError;
  }

  /**
   * `count` entries dropped, for `reason`: counted, sent to telemetry, warned about at most once
   * per `DROP_WARNING_MS`. Under sustained overload a warning per run of drops (one per slice
   * written) was a thousand warnings a second, each an error with its stack and a write to
   * stderr on the event loop.
   */
  drop(count: number, reason: string): void {
    this.dropped += count;
    countLedgerLost(count, "dropped");
    this.#unwarned += count;
    const now = Date.now();
    if (now < this.#nextDropWarning) return;
    const first = this.#nextDropWarning === 0;
    this.#nextDropWarning = now + DROP_WARNING_MS;
    this.#warn(new Error(reason), this.#unwarned, first ? "dropped" : `dropped in the last ${DROP_WARNING_MS / 1000} s or so`);
    this.#unwarned = 0;
  }

  /** `count` entries could not be written (`what` says what became of them). */
  failed(cause: unknown, count: number, what: string): void {
    this.#failures.push(this.#warn(cause, count, what));
  }

  /** The failures since the last call, handed over once. */
  takeFailures(): Error[] {
    const failures = this.#failures;
    this.#failures = [];
    return failures;
  }

  /**
   * What `flush()` rejects with while `pending` entries still wait on failing writes: the one
   * failure since the last flush, or all of them, carrying the sink's counters as `stats`.
   */
  pendingError(pending: number, stats: object): Error {
    const failures = this.takeFailures();
    const summary = `toolguard ledger ${this.#path}: ${pending} ${plural(pending, "entry", "entries")} not yet written (kept, retried)`;
    const error = failures.length === 1 ? (failures[0] as Error) : new AggregateError(failures, summary);
    return Object.assign(error, { stats });
  }

  #warn(cause: unknown, count: number, what: string): Error {
    const error = new Error(`toolguard ledger: ${count} ${plural(count, "entry", "entries")} ${what}: ${this.#path}: ${messageOf(cause)}`, { cause });
    process.emitWarning(error.message, { type: "ToolguardLedgerWarning" });
    this.#onError?.(error);
    return error;
  }
}
