// What a valid attempt hands on: the snapshot of its arguments (the idempotency key and the
// ledger's `arguments` are derived from it on first read, off the call's path), the context the
// implementation receives, and the ok outcome.
import type { ImplementationContext } from "../contract/api.ts";
import type { Coercion, OkOutcome } from "../contract/outcome.ts";
import type { JsonValue } from "../contract/tool-spec.ts";
import { removeAbsent } from "../coerce/absent-nulls.ts";
import { setAt } from "../coerce/set-at.ts";
import type { ArgumentsSnapshot } from "../ledger/chain-record.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import { applyResolutions } from "../resolve/apply-resolutions.ts";
import { idempotencyKey } from "./idempotency.ts";

/** The validated arguments, rebuilt on demand from immutable inputs: raw text plus coercions. */
export class Snapshot implements ArgumentsSnapshot {
  readonly #tool: string;
  /**
   * The passing attempt as recorded: its raw text, coercions, resolutions and dropped nulls
   * (`CallContext.absentNulls`). Read from there, not copied: the ledger keeps both until it
   * writes the entry. Final once the attempt passed (the reference step sets `resolutions` first).
   */
  readonly #record: LedgerAttempt;
  /** Applies every coercion again, for a record that lists only the first ones (`coercionsOmitted`). */
  readonly #recoerce: ((value: unknown) => void) | undefined;
  #fingerprint: string | undefined;
  #intent: string | undefined;

  constructor(tool: string, record: LedgerAttempt, recoerce?: (value: unknown) => void) {
    this.#tool = tool;
    this.#record = record;
    this.#recoerce = recoerce;
  }

  /** The tool whose arguments these are. */
  get tool(): string {
    return this.#tool;
  }

  /** The passing attempt as recorded (read, never changed, by the ok outcome and the chain). */
  get record(): LedgerAttempt {
    return this.#record;
  }

  /** The arguments the implementation received: parsed, coerced, references resolved. */
  arguments(): JsonValue {
    const { raw, absent, coercions, coercionsOmitted, resolutions } = this.#record;
    const value = JSON.parse(raw) as JsonValue;
    if (absent) removeAbsent(value, absent);
    if (coercionsOmitted !== undefined && coercionsOmitted > 0) {
      if (this.#recoerce === undefined) throw new Error(`toolguard: the arguments of ${this.#tool} list only some of their coercions and cannot be rebuilt`);
      this.#recoerce(value);
    } else for (const coercion of coercions) setAt(value, coercion.path, coercion.to);
    return (resolutions ? applyResolutions(value, resolutions) : value) as JsonValue;
  }

  /**
   * Whether the arguments are `attempt`'s raw text parsed with its resolutions applied, and
   * nothing else (no coercion, no absent null): the ledger then need not write them.
   */
  resolvedFrom(attempt: LedgerAttempt): boolean {
    const { absent, coercions, resolutions } = this.#record;
    return attempt === this.#record && coercions.length === 0 && (absent?.length ?? 0) === 0 && (resolutions?.length ?? 0) > 0;
  }

  /** The properties references were resolved into: keys the raw text does not have. */
  get addedKeys(): readonly string[] {
    const resolutions = this.#record.resolutions;
    return resolutions ? resolutions.map((resolution) => resolution.target) : [];
  }

  /** Whether the arguments differ from what the raw text says (coercions, resolutions, absent nulls). */
  get changed(): boolean {
    return argumentsChanged(this.#record);
  }

  /** The key if something already derived it (or named the intent); never computes it. */
  get keyIfRead(): string | undefined {
    return this.#intent ?? this.#fingerprint;
  }

  /** Names the call's intent (`idempotency.keyOf`); the key is then that name, not the hash. */
  intent(key: string): void {
    if (typeof key !== "string" || key === "")
      throw new TypeError(`toolguard: idempotency.keyOf of ${this.#tool} must return a non-empty string, got ${JSON.stringify(key)}`);
    this.#intent = key;
  }

  /** The idempotency key: the named intent, or else the hash of the validated arguments. */
  key(args?: JsonValue): string {
    return this.#intent ?? this.fingerprint(args);
  }

  /**
   * The hash of the validated arguments. `args`, when given, must be a fresh result of
   * `arguments()`: it saves parsing the text again.
   */
  fingerprint(args?: JsonValue): string {
    return (this.#fingerprint ??= idempotencyKey(this.#tool, args ?? this.arguments()));
  }
}

/**
 * Whether the arguments of a passing attempt differ from what its raw text says (coercions,
 * resolutions, absent nulls): only then does its ledger entry read them from a snapshot.
 */
export function argumentsChanged(record: LedgerAttempt): boolean {
  const { absent, coercions, resolutions } = record;
  return coercions.length > 0 || (resolutions?.length ?? 0) > 0 || (absent?.length ?? 0) > 0;
}

/** What the implementation receives besides its arguments; the key is derived on first read. */
export class GuardContext implements ImplementationContext {
  readonly tool: string;
  readonly turn: string;
  readonly signal: AbortSignal | undefined;
  readonly #snapshot: Snapshot;

  constructor(tool: string, turn: string, signal: AbortSignal | undefined, snapshot: Snapshot) {
    this.tool = tool;
    this.turn = turn;
    this.signal = signal;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }

  /** The snapshot `ctx` was made with; static, so the implementation's `ctx` does not show it. */
  static snapshotOf(ctx: GuardContext): Snapshot {
    return ctx.#snapshot;
  }
}

/** The ok outcome; a class so the key can be derived on first read, serialised by `toJSON`. */
export class OkResult<Result> implements OkOutcome<Result> {
  readonly status = "ok" as const;
  readonly tool: string;
  readonly result: Result;
  readonly coercions: readonly Coercion[];
  readonly coercionsOmitted: number | undefined;
  readonly attempts: number;
  readonly replayed: boolean | undefined;
  readonly #snapshot: Snapshot;

  constructor(result: Result, snapshot: Snapshot, attempts: number, replayed: boolean) {
    const record = snapshot.record;
    this.tool = snapshot.tool;
    this.result = result;
    this.coercions = record.coercions;
    this.coercionsOmitted = record.coercionsOmitted;
    this.attempts = attempts;
    this.replayed = replayed ? true : undefined;
    this.#snapshot = snapshot;
  }

  get idempotencyKey(): string {
    return this.#snapshot.key();
  }

  toJSON(): OkOutcome<Result> {
    const { status, tool, result, coercions, coercionsOmitted, attempts, idempotencyKey, replayed } = this;
    const listed = coercionsOmitted === undefined ? { status, tool, result, coercions } : { status, tool, result, coercions, coercionsOmitted };
    return replayed ? { ...listed, attempts, idempotencyKey, replayed } : { ...listed, attempts, idempotencyKey };
  }
}
