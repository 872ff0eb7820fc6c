// Figure 6, one process: what telemetry costs a valid call, in one side-by-side run. Four
// contenders on the invoice's valid call: the floor (JSON.parse + the validator), the guard with
// no OpenTelemetry SDK registered, with a metrics SDK only, and with metrics and traces (a span
// per call, batched to an exporter that drops, its deferred work charged to it). The SDKs are
// the application's globals, so each contender installs its own set when its batch starts (one
// string compare per call, paid by every contender alike; the guard's instruments and tracer
// are looked up again once per batch). Also the guard against the same guard without its
// tracing wrapper, with no SDK: it must cost nothing measurable. Prints one JSON line.
import { metrics, trace } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { createGuard } from "../../templates/runtime/call/guard.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { invoiceSpec, validInvoice } from "../../test/runtime/invoice-spec.ts";
import { sideBySide } from "../lib/side-by-side.ts";

const spec = invoiceSpec();
const raw = JSON.stringify(validInvoice);
const dropSink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
const implementation = (): string => "done";
const context = { turn: "bench" };
const bare = createGuard(spec, implementation, { ledger: dropSink });
const guarded = defineTool(spec).implement(implementation, { ledger: dropSink });

const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};
// The queue holds a whole batch, so no span is dropped (a dropped span costs less than a kept one).
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: dropSpans, maxQueueSize: 16_384, maxExportBatchSize: 4_096 })],
});
const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 1_000 })] });

type Mode = "none" | "metrics" | "traces";
let installed: Mode = "none";
function install(mode: Mode): void {
  if (installed === mode) return;
  installed = mode;
  trace.disable();
  metrics.disable();
  if (mode !== "none") metrics.setGlobalMeterProvider(meterProvider);
  if (mode === "traces") trace.setGlobalTracerProvider(tracerProvider);
}

const floor = (): boolean => {
  install("none");
  return spec.validate(JSON.parse(raw));
};
const result = await sideBySide(
  {
    floor,
    unwrapped: () => {
      install("none");
      return bare.call(raw, context);
    },
    none: () => {
      install("none");
      return guarded.call(raw, context);
    },
    metrics: () => {
      install("metrics");
      return guarded.call(raw, context);
    },
    traces: () => {
      install("traces");
      return guarded.call(raw, context);
    },
  },
  { charged: { traces: () => tracerProvider.forceFlush() } },
);
install("none");
await tracerProvider.shutdown();
await meterProvider.shutdown();

console.log(JSON.stringify(result));
