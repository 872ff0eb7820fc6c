// Counters through the OpenTelemetry API only: without an SDK registered they are no-ops, so no
// exporter is forced on users. Failed calls by tool and class, and by the rules they broke, are
// the schema-quality signal, counted as `toolguard report` counts them from the ledger; the
// repair counters show whether the error envelopes work. Attributes are named as on the call's
// span: the GenAI conventions' `gen_ai.tool.name`, and `toolguard.*` for the rest.
//
// The API's meters are not proxies: a meter taken before the application registers its SDK
// stays a no-op. So the instruments are (re)created whenever the global provider changes,
// which costs one lookup per count, and one per call: the tracing wrapper's lookup serves the
// guard's call count (`ToolTelemetry.lend`).
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
  /** Failed calls (attempts), by tool and failure class. */
  readonly validationFailed: Counter;
  /** Failed calls by each rule they broke: a call that broke two rules counts once under each. */
  readonly ruleFailures: Counter;
  /** Argument errors listed to the model, by tool, rule and failure class. */
  readonly argumentErrors: Counter;
  readonly repairSucceeded: Counter;
  readonly repairExhausted: Counter;
  readonly idempotencyConflict: Counter;
  readonly duration: Histogram;
  readonly outcomes: Counter;
  readonly ledgerLost: Counter;
}

/**
 * Where `@opentelemetry/api` keeps what is registered with it (its `global-utils`: one object on
 * `globalThis` per major version, made by the first registration of a provider, a context
 * manager, a propagator or a logger, and kept after one is disabled). While it is absent every
 * provider the API hands out is its no-op one, so a count is dropped without asking for them.
 * test/runtime/telemetry.test.ts holds the key to the API: a provider registered through it is seen.
 */
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/** False while nothing is registered with the OpenTelemetry API (no SDK): its instruments are then no-ops. */
export function telemetryRegistered(): boolean {
  return (globalThis as { [API_GLOBAL]?: unknown })[API_GLOBAL] !== undefined;
}

/** The instruments made for the last global meter provider seen: one set per provider, process-wide. */
const MADE: { current: Instruments | undefined } = { current: undefined };

/** The instruments of the current global meter provider, made once per provider. */
export function meterInstruments(): Instruments {
  const provider = metrics.getMeterProvider();
  const made = MADE.current;
  if (made?.provider === provider) return made;
  const meter = provider.getMeter("toolguard");
  const current: Instruments = {
    provider,
    active: !(meter instanceof NOOP_METER),
    calls: meter.createCounter("toolguard.calls", { description: "Tool call attempts received by the guard" }),
    validationFailed: meter.createCounter("toolguard.validation_failed", {
      description: "Tool calls whose arguments failed (syntactic, structural or semantic), by tool and failure class",
    }),
    ruleFailures: meter.createCounter("toolguard.rule_failures", {
      description: "Failed tool calls by each rule they broke (a call counts once per rule), by tool, rule and failure class",
    }),
    argumentErrors: meter.createCounter("toolguard.argument_errors", {
      description: "Argument errors listed to the model, by tool, rule and failure class",
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
    duration: meter.createHistogram("toolguard.call.duration", {
      unit: "s",
      description: "Time of a guarded call, from raw arguments to outcome",
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_S] },
    }),
    outcomes: meter.createCounter("toolguard.outcomes", { description: "Guarded calls by tool and outcome status" }),
    ledgerLost: meter.createCounter("toolguard.ledger.lost", {
      description: "Ledger entries that never reached the ledger or left it: dropped by a full queue, or rotated away (by reason)",
    }),
  };
  MADE.current = current;
  return current;
}

/**
 * Bucket boundaries of the duration histogram, in seconds. A refused call takes microseconds, a
 * valid one its implementation's time, up to seconds; the SDK's default boundaries (0, 5, 10 ...
 * 10,000) would put every call in the first bucket, where no percentile can be read.
 */
export const DURATION_BUCKETS_S: readonly number[] = Object.freeze([
  0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
]);

/** The attribute that names the tool, on metrics as on spans (OpenTelemetry GenAI conventions). */
export const TOOL_NAME = "gen_ai.tool.name";

/** Attributes that name a tool: one frozen object per guarded tool, not one per call. */
export type ToolAttributes = { readonly [TOOL_NAME]: string };

export function toolAttributes(tool: string): ToolAttributes {
  return Object.freeze({ [TOOL_NAME]: tool });
}

// Not rules the model broke: the count of errors left out of an envelope, and the refusal's own
// line. `toolguard report` leaves them out of its rules too.
const NOT_RULES: ReadonlySet<string> = new Set(["more_errors", "repair_budget"]);

/**
 * One bound tool's telemetry, in its call plan: the attributes that name it, and the instruments
 * its tracing wrapper looked up for the call it is starting. The guard counts an attempt first
 * thing, in the same synchronous stack, so the first count takes them instead of asking the API
 * for the provider again. The wrapper ends the loan when `call` returns, so a later count (a
 * repair's attempt, `check`, a tool loaded on first use) looks the provider up.
 */
export class ToolTelemetry {
  readonly attributes: ToolAttributes;
  #lent: Instruments | undefined;

  constructor(tool: string) {
    this.attributes = toolAttributes(tool);
  }

  /** Lends `instruments` to the next `countCall` of this tool; `undefined` ends the loan. */
  lend(instruments: Instruments | undefined): void {
    this.#lent = instruments;
  }

  countCall(): void {
    const lent = this.#lent;
    // Nothing registered (no SDK): the count goes to a no-op counter, so it is not made at all.
    if (lent === undefined && !telemetryRegistered()) return;
    this.#lent = undefined;
    (lent ?? meterInstruments()).calls.add(1, this.attributes);
  }
}

/** One failed call: once in `validation_failed`, once per rule it broke, and each of its errors. */
export function countFailure(tool: string, failure: FailureClass, errors: readonly ArgumentError[]): void {
  const instruments = meterInstruments();
  // Without an SDK every counter drops what it is given: no attributes to build, no rules to
  // tally (a Map and an object per rule, on every failed call).
  if (!instruments.active) return;
  instruments.validationFailed.add(1, { [TOOL_NAME]: tool, "toolguard.failure": failure });
  const perRule = new Map<string, number>();
  for (const error of errors) if (!NOT_RULES.has(error.rule)) perRule.set(error.rule, (perRule.get(error.rule) ?? 0) + 1);
  for (const [rule, count] of perRule) {
    const attributes = { [TOOL_NAME]: tool, "toolguard.rule": rule, "toolguard.failure": failure };
    instruments.ruleFailures.add(1, attributes);
    instruments.argumentErrors.add(count, attributes);
  }
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
