// The ledger entry of one chain, built on the call's path by handing over references: its id,
// start time, arguments and key are derived only when a sink serialises or reads the entry.
import type { JsonValue } from "../contract/tool-spec.ts";
import type { LedgerAttempt, LedgerEntry, LedgerSink, Verdict } from "./ledger.ts";

/**
 * Hands an entry to the sink. A sink must report failures through `flush`; one that throws still
 * must not turn a model's call into an exception, and must not go unnoticed.
 */
export function appendEntry(sink: LedgerSink, entry: LedgerEntry): void {
  try {
    sink.append(entry);
  } catch (error) {
    process.emitWarning(`toolguard ledger: an entry for ${entry.tool} could not be appended: ${String(error)}`, { type: "ToolguardLedgerWarning" });
  }
}

/** What an entry needs of its chain: the id, read only when the entry is. */
export interface ChainIdentity {
  readonly id: string;
}

/** The arguments the implementation received and their idempotency key, derived on demand. */
export interface ArgumentsSnapshot {
  arguments(): JsonValue;
  /** `args`, when given, must be a fresh result of `arguments()`. */
  key(args?: JsonValue): string;
}

/**
 * Attempts made after their turn was refused (recorded in the refused chain, answered with a
 * refusal): not repairs, whatever came before them.
 */
const REFUSED_ATTEMPTS: WeakSet<LedgerAttempt> = new WeakSet();

/** Marks `attempt` as made after its turn was refused; returns it. */
export function markRefused(attempt: LedgerAttempt): LedgerAttempt {
  REFUSED_ATTEMPTS.add(attempt);
  return attempt;
}

let isoSecond = NaN;
let isoPrefix = "";

/**
 * `new Date(ms).toISOString()`, formatting the date and time once per second: entries written
 * together share it, and `toISOString` was a tenth of serialising an entry.
 */
function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const iso = new Date(ms).toISOString();
    // Years beyond 9999 have a longer form; leave those to toISOString itself.
    if (iso.length !== 24) return iso;
    isoSecond = second;
    isoPrefix = iso.slice(0, 20);
  }
  const milli = ms - second * 1000;
  return `${isoPrefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
}

/**
 * A ledger entry whose arguments and key are derived only when it is serialised or read.
 * `startedAt` undefined: a chain of one valid attempt, whose time is read when the entry first
 * is (sinks read entries as they take them, so within the call's own tick or the sink's next
 * slice), which keeps clock reads off the valid call's path.
 */
export class ChainRecord implements LedgerEntry {
  readonly v = 1 as const;
  readonly #identity: ChainIdentity | undefined;
  #chain: string | undefined;
  readonly tool: string;
  readonly turn: string;
  readonly verdict: Verdict;
  readonly attempts: readonly LedgerAttempt[];
  #startedAt: number | undefined;
  readonly #snapshot: ArgumentsSnapshot | undefined;

  constructor(
    identity: ChainIdentity | undefined,
    tool: string,
    turn: string,
    startedAt: number | undefined,
    verdict: Verdict,
    attempts: readonly LedgerAttempt[],
    snapshot: ArgumentsSnapshot | undefined,
  ) {
    this.#identity = identity;
    this.tool = tool;
    this.turn = turn;
    this.verdict = verdict;
    this.attempts = attempts;
    this.#startedAt = startedAt;
    this.#snapshot = snapshot;
  }

  /** The chain's id, minted only when the entry is read, off the call's path. */
  get chain(): string {
    return (this.#chain ??= this.#identity?.id ?? crypto.randomUUID());
  }

  get startedAt(): string {
    return isoTime(Math.round((this.#startedAt ??= Date.now())));
  }

  /** Attempts that answered a failed one (a reply to a question, or a refused call, is not a repair). */
  get repairs(): number {
    let repairs = 0;
    for (let index = 1; index < this.attempts.length; index++) {
      if (this.attempts[index - 1]?.failure && !REFUSED_ATTEMPTS.has(this.attempts[index] as LedgerAttempt)) repairs++;
    }
    return repairs;
  }

  get arguments(): JsonValue | undefined {
    return this.#snapshot?.arguments();
  }

  get idempotencyKey(): string | undefined {
    return this.#snapshot?.key();
  }

  toJSON(): LedgerEntry {
    // One parse of the raw text serves both fields; hashing only reads the value.
    const args = this.#snapshot?.arguments();
    return {
      v: this.v,
      chain: this.chain,
      tool: this.tool,
      turn: this.turn,
      startedAt: this.startedAt,
      verdict: this.verdict,
      attempts: this.attempts,
      repairs: this.repairs,
      arguments: args,
      idempotencyKey: this.#snapshot?.key(args),
    };
  }
}
