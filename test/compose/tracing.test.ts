// Traces and call metrics through @opentelemetry/api only, checked with the real SDK: the
// in-memory exporters for what is recorded, and the real OTLP/HTTP exporters over loopback to a
// receiver that decodes the OTLP JSON payload, as a Collector would receive it.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { metrics, trace } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, MemorySink } from "../../templates/runtime/index.ts";
import { meterInstruments as callInstruments } from "../../templates/runtime/telemetry/telemetry.ts";
import { activeTracer } from "../../templates/runtime/telemetry/tracing.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

afterEach(() => {
  trace.disable();
  metrics.disable();
});

const invalid = JSON.stringify({ ...validInvoice, currency: "eur" });
const valid = JSON.stringify(validInvoice);

function inMemory() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  trace.setGlobalTracerProvider(tracerProvider);
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return { spans, metricExporter, meterProvider };
}

describe("a span per call", () => {
  it("is named and attributed after the GenAI conventions, with error.type the failure class", async () => {
    const { spans } = inMemory();
    const tool = defineTool(invoiceSpec()).implement(() => ({ id: "inv_1" }), { ledger: new MemorySink() });
    await tool.call(invalid, { turn: "t1", toolCallId: "call_1" });
    await tool.call(valid, { turn: "t1", toolCallId: "call_2" });
    const [failed, ok] = spans.getFinishedSpans();
    expect(failed?.name).toBe("execute_tool create_invoice");
    expect(failed?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_invoice",
      "gen_ai.tool.call.id": "call_1",
      "error.type": "structural",
      "toolguard.outcome": "validation_failed",
    });
    expect(failed?.status.code).toBe(2); // ERROR
    expect(failed?.events.map((event) => event.name)).toEqual(["toolguard.attempt_failed"]);
    expect(ok?.attributes).toMatchObject({ "gen_ai.tool.call.id": "call_2", "toolguard.outcome": "ok", "toolguard.attempts": 2 });
    expect(ok?.attributes["error.type"]).toBeUndefined();
    // Arguments are personal data until the application says otherwise.
    expect(failed?.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
  });

  it("records the arguments only on opt-in, and one event per repair the guard asks for", async () => {
    const { spans } = inMemory();
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink(), trace: { arguments: true } });
    const outcome = await tool.call(invalid, { turn: "t2", repair: () => valid });
    expect(outcome.status).toBe("ok");
    const [span] = spans.getFinishedSpans();
    expect(span?.attributes["gen_ai.tool.call.arguments"]).toBe(invalid);
    expect(span?.events.map((event) => [event.name, event.attributes?.["error.type"]])).toEqual([["toolguard.repair", "structural"]]);
  });

  it("marks a dependency failure with where it came from", async () => {
    const { spans } = inMemory();
    const tool = defineTool(invoiceSpec()).implement(
      () => {
        throw new TypeError("backend said no");
      },
      { ledger: new MemorySink() },
    );
    await expect(tool.call(valid, { turn: "t3" })).rejects.toThrow("backend said no");
    const [span] = spans.getFinishedSpans();
    expect(span?.attributes["error.type"]).toBe("implementation:TypeError");
    expect(span?.events.map((event) => event.name)).toEqual(["exception"]);
  });

  it("measures call duration and counts calls by outcome", async () => {
    const { metricExporter, meterProvider } = inMemory();
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink() });
    await tool.call(invalid, { turn: "t4" });
    await tool.call(valid, { turn: "t4" });
    await meterProvider.forceFlush();
    const exported = metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics));
    const byName = new Map(exported.map((metric) => [metric.descriptor.name, metric]));
    const outcomes = byName.get("toolguard.outcomes")?.dataPoints.map((point) => [point.attributes["toolguard.outcome"], point.value]);
    expect(outcomes).toEqual([
      ["validation_failed", 1],
      ["ok", 1],
    ]);
    const duration = byName.get("toolguard.call.duration");
    expect(duration?.descriptor.unit).toBe("s");
    expect(duration?.dataPoints).toHaveLength(2);
  });

  it("is not created at all without an SDK: no span, no clock read, no measurement", async () => {
    const spans = new InMemorySpanExporter();
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }); // built, never registered
    expect(activeTracer()).toBeUndefined();
    expect(callInstruments().active).toBe(false);
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink() });
    await tool.call(valid, { turn: "t5" });
    expect(spans.getFinishedSpans()).toHaveLength(0);
    inMemory();
    expect(activeTracer()).toBeDefined();
    expect(callInstruments().active).toBe(true);
  });
});

describe("OTLP/HTTP over loopback", () => {
  it("delivers the spans and metrics a Collector would receive", async () => {
    const received: { path: string; body: unknown }[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        expect(request.headers["content-type"]).toContain("application/json");
        received.push({ path: request.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const tracerProvider = new TracerProvider({
        spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${base}/v1/traces` }) })],
      });
      trace.setGlobalTracerProvider(tracerProvider);
      const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }), exportIntervalMillis: 60_000 });
      const meterProvider = new MeterProvider({ readers: [reader] });
      metrics.setGlobalMeterProvider(meterProvider);

      const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink() });
      await tool.call(invalid, { turn: "otlp", toolCallId: "call_9" });
      await tracerProvider.forceFlush();
      await meterProvider.forceFlush();

      const traces = received.find((request) => request.path === "/v1/traces")?.body as {
        resourceSpans: {
          scopeSpans: { scope: { name: string }; spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[];
        }[];
      };
      const span = traces.resourceSpans[0]?.scopeSpans[0]?.spans[0];
      expect(traces.resourceSpans[0]?.scopeSpans[0]?.scope.name).toBe("toolguard");
      expect(span?.name).toBe("execute_tool create_invoice");
      const attributes = Object.fromEntries(span?.attributes.map((attribute) => [attribute.key, attribute.value.stringValue]) ?? []);
      expect(attributes).toMatchObject({ "gen_ai.tool.name": "create_invoice", "gen_ai.tool.call.id": "call_9", "error.type": "structural" });

      const metricBody = received.find((request) => request.path === "/v1/metrics")?.body as {
        resourceMetrics: { scopeMetrics: { metrics: { name: string }[] }[] }[];
      };
      const names = metricBody.resourceMetrics.flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.name)));
      expect(names).toEqual(expect.arrayContaining(["toolguard.calls", "toolguard.validation_failed", "toolguard.outcomes", "toolguard.call.duration"]));
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    } finally {
      server.close();
    }
  });
});
