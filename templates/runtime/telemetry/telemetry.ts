// Counters through the OpenTelemetry API only: without an SDK registered they are no-ops, so no
// exporter is forced on users. `validation_failed` by tool, rule and class is the schema-quality
// signal; the repair counters show whether the error envelopes work.
//
// The API's meters are not proxies: a meter taken before the application registers its SDK
// stays a no-op. So the instruments are (re)created whenever the global provider changes,
// which costs one lookup per count, and one per call: the tracing wrapper's lookup serves the
// guard's call count (lendInstruments).
import { createNoopMeter, metrics, type Counter, type Histogram, type Meter, type MeterProvider } from "@opentelemetry/api";
import type { ArgumentError, FailureClass } from "../contract/outcome.ts";

/** The API's no-op meter class: a provider whose meters are of it has no SDK behind it. */
const NOOP_METER: new (...args: never[]) => Meter = createNoopMeter().constructor as new (...args: never[]) => Meter;

/** Every instrument toolguard records with, for one meter provider. */
export interface Instruments {
  readonly provider: MeterProvider;
  /** False when no SDK is registered: callers may then skip reading clocks for measurements. */
  readonly active: boolean;
  readonly calls: Counter;
  readonly validationFailed: Counter;
  readonly repairSucceeded: Counter;
  readonly repairExhausted: Counter;
  readonly idempotencyConflict: Counter;
  readonly duration: Histogram;
  readonly outcomes: Counter;
  readonly ledgerLost: Counter;
}

let current: Instruments | undefined;

/** The instruments of the current global meter provider, made once per provider. */
export function meterInstruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (current?.provider === provider) return current;
  const meter = provider.getMeter("toolguard");
  current = {
    provider,
    active: !(meter instanceof NOOP_METER),
    calls: meter.createCounter("toolguard.calls", { description: "Tool call attempts received by the guard" }),
    validationFailed: meter.createCounter("toolguard.validation_failed", {
      description: "Argument errors per failed attempt, by tool, rule and failure class",
    }),
    repairSucceeded: meter.createCounter("toolguard.repair_succeeded", {
      description: "Repair chains that ended with valid arguments after at least one repair",
    }),
    repairExhausted: meter.createCounter("toolguard.repair_exhausted", {
      description: "Repair chains refused because the repair budget was spent",
    }),
    idempotencyConflict: meter.createCounter("toolguard.idempotency_conflict", {
      description: "Calls refused because their idempotency key already ran with other arguments",
    }),
    duration: meter.createHistogram("toolguard.call.duration", { unit: "s", description: "Time of a guarded call, from raw arguments to outcome" }),
    outcomes: meter.createCounter("toolguard.outcomes", { description: "Guarded calls by tool and outcome status" }),
    ledgerLost: meter.createCounter("toolguard.ledger.lost", {
      description: "Ledger entries that never reached the ledger or left it: dropped by a full queue, or rotated away (by reason)",
    }),
  };
  return current;
}

/** Attributes that name a tool: one frozen object per guarded tool, not one per call. */
export type ToolAttributes = { readonly tool: string };

export function toolAttributes(tool: string): ToolAttributes {
  return Object.freeze({ tool });
}

// The instruments the tracing wrapper looked up for the call it is starting. The guard counts
// an attempt first thing, in the same synchronous stack, so the first count takes them instead
// of asking the API for the provider again. The wrapper ends the loan when `call` returns, so a
// later count (a repair's attempt, `check`, a tool loaded on first use) looks the provider up.
let lent: Instruments | undefined;

/** Lends `instruments` to the next `countCall` in this synchronous stack; `undefined` ends the loan. */
export function lendInstruments(instruments: Instruments | undefined): void {
  lent = instruments;
}

export function countCall(attributes: ToolAttributes): void {
  const instruments = lent ?? meterInstruments();
  lent = undefined;
  instruments.calls.add(1, attributes);
}

export function countFailure(tool: string, failure: FailureClass, errors: readonly ArgumentError[]): void {
  const counter = meterInstruments().validationFailed;
  for (const error of errors) counter.add(1, { tool, rule: error.rule, failure });
}

export function countRepairSucceeded(attributes: ToolAttributes): void {
  meterInstruments().repairSucceeded.add(1, attributes);
}

export function countRepairExhausted(attributes: ToolAttributes): void {
  meterInstruments().repairExhausted.add(1, attributes);
}

export function countIdempotencyConflict(attributes: ToolAttributes): void {
  meterInstruments().idempotencyConflict.add(1, attributes);
}

/** Ledger entries lost to the ledger: `dropped` (a full queue, a closed sink) or `rotated` (retention removed them). */
export function countLedgerLost(count: number, reason: "dropped" | "rotated"): void {
  meterInstruments().ledgerLost.add(count, { reason });
}
