// Where a guarded tool meets its sink: the entries it appends (with the tool's redaction and caps),
// backpressure (the outcome waits while the sink's queue is over its bound), durable mode (the
// outcome waits for its entry to be on disk) and fail-closed mode (no implementation runs while
// the ledger cannot be written).
import type { HttpBinding, JsonSchema } from "../contract/tool-spec.ts";
import type { LedgerUnavailableOutcome, Outcome } from "../contract/outcome.ts";
import type { RedactionOptions } from "../contract/redaction.ts";
import type { LedgerAttempt, LedgerSink, Verdict } from "./ledger.ts";
import { appendEntry, appendEntryNow } from "./append-entry.ts";
import { ChainRecord, type ArgumentsSnapshot, type ChainIdentity } from "./chain-record.ts";
import { defaultLedger } from "./default-ledger.ts";
import { RecordPolicy } from "./record-policy.ts";

/** The verdicts a chain ends with once a valid attempt went on to the implementation (or was kept from it). */
export type ClosingVerdict = Extract<Verdict, "ok" | "replayed" | "error" | "conflict" | "ledger_unavailable">;

/**
 * The verdicts of entries whose outcome guard.ts hands back through `returned` (failures,
 * refusals, questions, repairs). The others (an error thrown, a conflict, a refusal to run, a
 * chain evicted) are rare and are written through at once.
 */
const RETURNED_VERDICTS: ReadonlySet<Verdict> = new Set<Verdict>(["open", "rejected", "repaired", "ok", "replayed"]);

/** The options of a guard that concern its ledger (`GuardOptions`). */
export interface GuardLedgerOptions {
  readonly ledger?: LedgerSink;
  readonly redact?: RedactionOptions;
  readonly maxLedgerTextChars?: number;
  readonly durable?: boolean;
  readonly failClosed?: boolean;
}

/** One guarded tool's side of the ledger. The default sink is opened on first use. */
export class GuardLedger {
  readonly #tool: string;
  readonly #policy: RecordPolicy;
  readonly #durable: boolean;
  /** Fail-closed mode: the implementation runs only while `gate` says the ledger can be written. */
  readonly failClosed: boolean;
  /** Whether the guard asks `gate` before the implementation runs: fail-closed mode, or durable mode (its bound on waiting calls). */
  readonly gated: boolean;
  #sink: LedgerSink | undefined;
  /**
   * Set by the guard around `check()` (synchronous): a failure's entry recorded meanwhile is
   * written through before it returns. A field, not a wrapper taking a closure: `check` is the
   * fastest path there is.
   */
  synchronous = false;
  /** The write of the failure entry `record` just queued, until `returned` takes it. */
  #unwritten: Promise<void> | undefined;
  /**
   * The write of the last failure entry queued, until it is done: it covers every entry queued
   * before it (`written()` waits for all of them). A failure's envelope whose own wait another
   * call's `returned` took (their steps interleaved after an await: asynchronous resolvers)
   * waits on this instead.
   */
  #latest: Promise<void> | undefined;

  constructor(
    spec: { readonly name: string; readonly inputSchema: JsonSchema; readonly writeOnly?: readonly string[]; readonly http?: HttpBinding },
    options: GuardLedgerOptions,
  ) {
    this.#tool = spec.name;
    this.#policy = new RecordPolicy(spec, options);
    this.#durable = options.durable === true;
    this.failClosed = options.failClosed === true;
    this.gated = this.failClosed || this.#durable;
    this.#sink = options.ledger;
  }

  get sink(): LedgerSink {
    return (this.#sink ??= defaultLedger());
  }

  /**
   * Appends a chain's current state; `chain` undefined for a chain of one valid attempt (its id is
   * minted when read). A chain has an identity only once an attempt failed or asked a question
   * (guard.ts opens one only then), so every entry with one is a failure's record, and it must be
   * written before its envelope or outcome goes back (docs/ledger.md). Clean calls are batched.
   *
   * How a failure's entry is written before the caller has it: inside `check()` (synchronous)
   * and on the rare paths that end in a thrown error, written through now (`appendNow`); inside
   * `call()`, queued with the sink's next slice and the outcome handed back through `returned`,
   * which waits for that write without holding the event loop (an `fdatasync` per failure on the
   * loop would stall every other call for its length).
   */
  record(
    chain: (ChainIdentity & { readonly startedAt?: number }) | undefined,
    turn: string,
    attempts: readonly LedgerAttempt[],
    verdict: Verdict,
    snapshot?: ArgumentsSnapshot,
  ): void {
    const entry = new ChainRecord(chain, this.#tool, turn, chain?.startedAt, verdict, attempts, snapshot, this.#policy);
    const sink = this.sink;
    if (chain === undefined) appendEntry(sink, entry);
    else if (this.synchronous || sink.written === undefined || !RETURNED_VERDICTS.has(verdict)) appendEntryNow(sink, entry);
    else {
      appendEntry(sink, entry);
      // Taken by `returned` in the same synchronous stack (guard.ts), before any other call runs.
      // A failed write is reported by the sink, and retried. A sink that cannot write at all (a
      // database that is down) must not hold the model's envelope: past the bound it goes back,
      // and the entry stays queued in the sink (its stats and `flush()` say so).
      const wait = boundedWait(sink.written());
      this.#unwritten = wait;
      this.#latest = wait;
      void wait.then(() => {
        if (this.#latest === wait) this.#latest = undefined;
      });
    }
  }

  /**
   * The value a guarded call hands back, once the failure entry it just recorded (if any) is
   * written. Called in the same synchronous stack as `record`, so the entry is this call's.
   */
  returned<Value>(value: Value): Value | Promise<Value> {
    const unwritten = this.#unwritten;
    if (unwritten !== undefined) {
      this.#unwritten = undefined;
      return unwritten.then(() => value);
    }
    // A failure's envelope whose wait was taken by another call's `returned`: the last write still
    // pending covers its entry. Successes never wait here (their entry, if any, was just recorded).
    const latest = this.#latest;
    if (latest !== undefined && isFailureEnvelope(value)) return latest.then(() => value);
    return value;
  }

  /** Read before the call's step: a call made while the sink is over its bound gets its outcome once the sink caught up. */
  pressure(): Promise<void> | undefined {
    return this.sink.backpressure?.();
  }

  /** The call's outcome, delayed by `pressure` and, in durable mode, until its entry is written. */
  settle<Result>(outcome: Promise<Outcome<Result>>, pressure: Promise<void> | undefined): Promise<Outcome<Result>> {
    return this.#durable || pressure ? settleWithLedger(outcome, this.sink, this.#durable, pressure) : outcome;
  }

  /**
   * Before the implementation runs (when `gated`). Durable mode: `run` while the sink has room
   * for one more call waiting for its entry (`maxWaiting`); past that bound the call is not run,
   * and `close` records it as `ledger_unavailable` (its entry queued like any other, or dropped and
   * counted) and the outcome says the ledger is behind, so the calls waiting, and what they keep
   * alive, stay bounded under any load. Fail-closed mode: `run` while the ledger can be written;
   * else the same refusal, saying the ledger cannot be written.
   */
  gate<Result>(run: () => Promise<Outcome<Result>>, close: () => number): Promise<Outcome<Result>> {
    if (this.#durable && (this.sink as Partial<DurableRoom>).durableRoom?.() === false) return Promise.resolve(ledgerBehind(this.#tool, close()));
    if (!this.failClosed) return run();
    const open = ledgerGate(this.sink);
    if (open === true) return run();
    if (open === false) return Promise.resolve(ledgerUnavailable(this.#tool, close()));
    return open.then((writable) => (writable ? run() : ledgerUnavailable(this.#tool, close())));
  }
}

/**
 * The outcome, delayed while the sink asks for backpressure, and in durable mode until every
 * entry appended so far (this call's included) is written. Without either, the same promise:
 * no extra promise turn on the ordinary path.
 */
export function settleWithLedger<Result>(
  outcome: Promise<Outcome<Result>>,
  sink: LedgerSink,
  durable: boolean,
  pressure: Promise<void> | undefined,
): Promise<Outcome<Result>> {
  if (durable && sink.written) {
    const written = sink.written.bind(sink);
    return outcome.then(
      // A call refused because the ledger is behind or unwritable does not wait for its entry: nothing ran.
      (settled) => (settled.status === "ledger_unavailable" ? settled : written().then(() => settled)),
      (error: unknown) =>
        written().then(
          () => Promise.reject(error),
          () => Promise.reject(error),
        ),
    );
  }
  if (pressure === undefined) return outcome;
  return pressure.then(() => outcome);
}

/** An outcome that is not a success: what `returned` gets for failures, refusals and questions. */
function isFailureEnvelope(value: unknown): boolean {
  const status = (value as { readonly status?: unknown } | null)?.status;
  return typeof status === "string" && status !== "ok";
}

/** Whether the implementation may run in fail-closed mode: the ledger can be written. */
export function ledgerGate(sink: LedgerSink): boolean | Promise<boolean> {
  if (!sink.writable) return true;
  try {
    const writable = sink.writable();
    return typeof writable === "boolean" ? writable : writable.catch(() => false);
  } catch {
    return false;
  }
}

export function ledgerUnavailable(tool: string, attempts: number): LedgerUnavailableOutcome {
  return {
    status: "ledger_unavailable",
    tool,
    detail: `The arguments for ${tool} were valid, but the call was not run: the audit ledger cannot be written right now, and this tool is configured to refuse unrecorded calls. Do not change the arguments; report the failure or try again later.`,
    attempts,
  };
}

/** A sink that bounds the calls waiting for their entries (JsonlFileSink): false once `maxWaiting` are waiting. */
interface DurableRoom {
  durableRoom(): boolean;
}

/** Durable mode past the sink's bound on waiting calls: valid arguments, not run, and why. */
export function ledgerBehind(tool: string, attempts: number): LedgerUnavailableOutcome {
  return {
    status: "ledger_unavailable",
    tool,
    detail: `The arguments for ${tool} were valid, but the call was not run: this tool answers only once each call is recorded in the audit ledger, and the ledger is behind (too many calls are waiting for it). Do not change the arguments; try again shortly.`,
    attempts,
  };
}

/**
 * How long a failure's envelope waits for its entry to be written: far longer than a local
 * file's sync takes (a few milliseconds), short enough that a sink whose store is unreachable
 * never stalls the repair loop (test/postgres/mcp-replicas.test.ts stops the database).
 */
export const WRITE_THROUGH_WAIT_MS = 2_000;

function boundedWait(written: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, WRITE_THROUGH_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([written.catch(() => undefined), bound]).finally(() => clearTimeout(timer));
}
