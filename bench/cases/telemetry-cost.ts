// Figure 6, one process: what tracing costs a valid call. First with no OpenTelemetry SDK
// registered (the guard as users get it, against the same guard without its tracing wrapper:
// must be equal within noise), then with an SDK registered (a span and a duration per call,
// exported in batches to an exporter that drops them). Prints one JSON line.
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
const floor = (): boolean => spec.validate(JSON.parse(raw));

const noSdk = await sideBySide({ floor, bare: () => bare.call(raw, context), guarded: () => guarded.call(raw, context) });

const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};
const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: dropSpans })] });
const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 1_000 })] });
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
const withSdk = await sideBySide({ floor, guarded: () => guarded.call(raw, context) });
await tracerProvider.shutdown();
await meterProvider.shutdown();

console.log(JSON.stringify({ noSdk, withSdk }));
