// What a dashboard reads from the metrics must be what `toolguard report` says from the ledger:
// calls, failed calls and failed calls by rule, per tool. Driven with the real OpenTelemetry SDK
// over a seeded mix of the brief's mistakes, then compared number for number. Also: the duration
// histogram has boundaries a microsecond-to-second call can be read from.
import { metrics } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import { defineTool, MemorySink } from "../../templates/runtime/index.ts";
import { DURATION_BUCKETS_S } from "../../templates/runtime/telemetry/telemetry.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

afterEach(() => metrics.disable());

function sdk() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const provider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })] });
  metrics.setGlobalMeterProvider(provider);
  return {
    async read() {
      await provider.forceFlush();
      const all = exporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics));
      return new Map(all.map((metric) => [metric.descriptor.name, metric.dataPoints as DataPoint<unknown>[]]));
    },
  };
}

/** Sums a counter's points whose attributes include `match`. */
function sum(points: DataPoint<unknown>[] | undefined, match: Record<string, string>): number {
  return (points ?? [])
    .filter((point) => Object.entries(match).every(([key, value]) => point.attributes[key] === value))
    .reduce((total, point) => total + (point.value as number), 0);
}

// A seeded generator, so the mix is the same on every run.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const MISTAKES: readonly string[] = [
  JSON.stringify({ ...validInvoice, currency: "eur" }), // enum
  JSON.stringify({ ...validInvoice, amount: "1,299.00", currency: "eur" }), // type + enum: one call, two rules
  JSON.stringify({ ...validInvoice, amount: -5 }), // minimum
  "{'amount': 1}", // single quotes
  JSON.stringify(validInvoice).slice(0, 40), // truncated
  JSON.stringify({
    ...validInvoice,
    line_items: [
      { description: "x", quantity: "two", unit_price: "3" },
      { description: "y", quantity: "1.5", unit_price: 2 },
    ],
  }),
];

describe("metrics and the report", () => {
  it("count the same calls, failed calls and failed calls by rule", async () => {
    const metered = sdk();
    const ledger = new MemorySink();
    const next = random(26);
    const tools = ["create_invoice", "draft_invoice"].map((name) => defineTool({ ...invoiceSpec(), name }).implement(() => ({ id: "inv" }), { ledger }));
    for (let conversation = 0; conversation < 300; conversation++) {
      const tool = tools[conversation % 2]!;
      const turn = { turn: `c${conversation}` };
      // Up to three attempts a turn: mistakes until the model gets it right or is refused.
      for (let attempt = 0; attempt < 3; attempt++) {
        const raw = next() < 0.6 ? JSON.stringify(validInvoice) : MISTAKES[Math.floor(next() * MISTAKES.length)]!;
        const outcome = await tool.call(raw, turn);
        if (outcome.status === "ok" || outcome.status === "arguments_rejected") break;
      }
    }
    const points = await metered.read();
    const fold = new ReportFold();
    for (const entry of ledger.entries) fold.add(entry);
    const report = analyse(fold.finish()).tools;
    expect(report.map((entry) => entry.tool)).toEqual(["create_invoice", "draft_invoice"]);
    for (const tool of report) {
      const named = { "gen_ai.tool.name": tool.tool };
      expect(sum(points.get("toolguard.calls"), named)).toBe(tool.calls);
      expect(sum(points.get("toolguard.validation_failed"), named)).toBe(tool.failedCalls);
      expect(tool.failedCalls).toBeGreaterThan(20);
      for (const rule of tool.rules) {
        const byRule = sum(points.get("toolguard.rule_failures"), { ...named, "toolguard.rule": rule.rule });
        expect(byRule, `${tool.tool} ${rule.rule}`).toBe(rule.failedCalls);
      }
      expect(sum(points.get("toolguard.repair_succeeded"), named)).toBe(tool.repairs.repaired);
      expect(sum(points.get("toolguard.repair_exhausted"), named)).toBe(tool.repairs.exhausted);
      // Errors are counted apart from calls: the two-rule mistakes list more errors than calls.
      expect(sum(points.get("toolguard.argument_errors"), named)).toBeGreaterThan(tool.failedCalls);
    }
  });

  it("the duration histogram has microsecond-to-second boundaries, and a call lands inside them", async () => {
    const metered = sdk();
    const tool = defineTool(invoiceSpec()).implement(() => ({ id: "inv" }), { ledger: new MemorySink() });
    for (let i = 0; i < 20; i++) await tool.call(JSON.stringify(validInvoice), { turn: `d${i}` });
    const [point] = (await metered.read()).get("toolguard.call.duration") as DataPoint<Histogram>[];
    expect(point?.value.buckets.boundaries).toEqual(DURATION_BUCKETS_S);
    const counts = point?.value.buckets.counts ?? [];
    expect(counts.reduce((total, count) => total + count, 0)).toBe(20);
    // Not all in the first or the overflow bucket: a percentile can be read.
    expect(counts[0]! + counts[counts.length - 1]!).toBeLessThan(20);
  });
});
