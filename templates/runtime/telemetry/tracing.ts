// One span per guarded call, named and attributed after the OpenTelemetry GenAI semantic
// conventions for tool execution (`execute_tool {tool}`), plus a duration histogram and calls
// by outcome. Through `@opentelemetry/api` only: while nothing is registered with it, a call
// pays one property read (`telemetryRegistered`); with the API in use but no SDK, two identity
// checks; it reads no clock without an SDK.
import { SpanKind, SpanStatusCode, trace, ProxyTracerProvider, type Attributes, type Span, type Tracer, type TracerProvider } from "@opentelemetry/api";
import type { CallContext, RepairCallback } from "../contract/api.ts";
import type { Outcome } from "../contract/outcome.ts";
import type { TraceOptions } from "../contract/trace-options.ts";
import { dependencySource } from "../compose/failure-kinds.ts";
import { conflictMessage } from "./alarm.ts";
import { meterInstruments, telemetryRegistered, TOOL_NAME, type ToolTelemetry } from "./telemetry.ts";

export type { TraceOptions };

// The API hands out its no-op provider when no SDK is registered; a proxy with no delegate
// returns that very object, which is how "nothing registered" is told apart without a probe span.
const NOOP_TRACER_PROVIDER: TracerProvider = new ProxyTracerProvider().getDelegate();

/** The tracer got from the last SDK provider seen: one per provider, process-wide. */
const GOT: { tracer: { readonly delegate: TracerProvider; readonly tracer: Tracer } | undefined } = { tracer: undefined };

/** The tracer of the registered SDK, or `undefined` when none is registered. Exported for tests. */
export function activeTracer(): Tracer | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const delegate = typeof global.getDelegate === "function" ? global.getDelegate() : global;
  if (delegate === NOOP_TRACER_PROVIDER) return undefined;
  if (GOT.tracer?.delegate !== delegate) GOT.tracer = { delegate, tracer: delegate.getTracer("toolguard") };
  return GOT.tracer.tracer;
}

type Call<Result> = (raw: unknown, context: CallContext) => Promise<Outcome<Result>>;

/**
 * Wraps a guarded tool's `call` so that each call is a span and a measurement when an SDK is
 * registered, and the bare call when none is. `telemetry`: the tool's, from its call plan.
 */
export function traced<Result>(telemetry: ToolTelemetry, call: Call<Result>, options: TraceOptions = {}): Call<Result> {
  const tool = telemetry.attributes[TOOL_NAME];
  const toolAttributes: Attributes = Object.freeze({ "gen_ai.operation.name": "execute_tool", [TOOL_NAME]: tool, "gen_ai.tool.type": "function" });
  // The duration's and the outcome count's attributes, one frozen object per outcome status, made
  // on first use: a call allocates no attribute map (the SDK still hashes it on every record).
  const byOutcome = new Map<string, Attributes>();
  const outcomeAttributes = (status: string): Attributes => {
    let attributes = byOutcome.get(status);
    if (attributes === undefined) {
      attributes = Object.freeze({ [TOOL_NAME]: tool, "toolguard.outcome": status });
      byOutcome.set(status, attributes);
    }
    return attributes;
  };
  // The call with the API in use; apart from the bare call's function, so that one allocates
  // nothing for what these closures capture.
  const observed: Call<Result> = (raw, context) => {
    const tracer = activeTracer();
    const instruments = meterInstruments();
    // One provider lookup per call: the guard counts the call with these (telemetry.ts).
    telemetry.lend(instruments);
    try {
      if (!tracer && !instruments.active) return call(raw, context);
      const started = performance.now();
      const span = tracer?.startSpan(`execute_tool ${tool}`, { kind: SpanKind.INTERNAL, attributes: spanAttributes(toolAttributes, raw, context, options) });
      const measured = span && context.repair ? { ...context, repair: withRepairEvents(span, context.repair) } : context;
      return call(raw, measured).then(
        (outcome) => {
          if (span) endWithOutcome(span, outcome);
          const attributes = outcomeAttributes(outcome.status);
          instruments.duration.record((performance.now() - started) / 1000, attributes);
          instruments.outcomes.add(1, attributes);
          return outcome;
        },
        (error: unknown) => {
          const type = errorType(error);
          if (span) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setAttribute("error.type", type);
            span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
            span.end();
          }
          const attributes = { [TOOL_NAME]: tool, "toolguard.outcome": "dependency_failure", "error.type": type };
          instruments.duration.record((performance.now() - started) / 1000, attributes);
          instruments.outcomes.add(1, attributes);
          throw error;
        },
      );
    } finally {
      telemetry.lend(undefined);
    }
  };
  // Nothing registered with the API (no SDK): the bare call, with no provider to look up.
  return (raw, context) => (telemetryRegistered() ? observed(raw, context) : call(raw, context));
}

function spanAttributes(base: Attributes, raw: unknown, context: CallContext, options: TraceOptions): Attributes {
  // The SDK copies a span's attributes in: with nothing to add, the tool's frozen ones serve as they are.
  if (context.toolCallId === undefined && !options.arguments) return base;
  const attributes: Attributes = { ...base };
  if (context.toolCallId !== undefined) attributes["gen_ai.tool.call.id"] = context.toolCallId;
  if (options.arguments) attributes["gen_ai.tool.call.arguments"] = typeof raw === "string" ? raw : safeJson(raw);
  return attributes;
}

function endWithOutcome(span: Span, outcome: Outcome<unknown>): void {
  span.setAttribute("toolguard.outcome", outcome.status);
  span.setAttribute("toolguard.attempts", outcome.attempts);
  if (outcome.status !== "ok") {
    // The failure class names the remedy (resend less, fix the fields, pick a candidate).
    const type = "failure" in outcome ? outcome.failure : outcome.status;
    span.setAttribute("error.type", type);
    span.addEvent("toolguard.attempt_failed", { "toolguard.outcome": outcome.status, "toolguard.attempt": outcome.attempts, "error.type": type });
    if (outcome.status === "idempotency_conflict") {
      // The alarm, where a trace view shows it: the status says what happened, the key which intent.
      span.setAttribute("toolguard.idempotency_key", outcome.idempotencyKey);
      span.setStatus({ code: SpanStatusCode.ERROR, message: conflictMessage(outcome.tool, outcome.idempotencyKey) });
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.status });
    }
  }
  span.end();
}

/** One span event per repair the guard asks the model for, with what failed. */
function withRepairEvents(span: Span, repair: RepairCallback): RepairCallback {
  return (failure) => {
    span.addEvent("toolguard.repair", {
      "toolguard.attempt": failure.attempts,
      "error.type": failure.failure,
      "toolguard.errors": failure.errors.length,
      "toolguard.repairs_left": failure.repairsLeft,
    });
    return repair(failure);
  };
}

/** `error.type` of a thrown error: where it came from and its class name. */
function errorType(error: unknown): string {
  const source = dependencySource(error);
  const name = error instanceof Error ? error.name : typeof error;
  return source ? `${source}:${name}` : name;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "[unserialisable]";
  }
}
