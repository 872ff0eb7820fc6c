// The counters reach whatever MeterProvider the application registers, even after import.
import { metrics, type Meter, type MeterProvider } from "@opentelemetry/api";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { telemetryRegistered } from "../../templates/runtime/telemetry/telemetry.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

const counted: [string, number, Record<string, unknown>][] = [];
const provider = {
  getMeter: () =>
    ({
      createCounter: (name: string) => ({ add: (n: number, attributes: Record<string, unknown> = {}) => counted.push([name, n, attributes]) }),
      // Call durations are checked with the real SDK (test/compose/tracing.test.ts).
      createHistogram: () => ({ record: () => undefined }),
    }) as unknown as Meter,
} as MeterProvider;

afterAll(() => metrics.disable());

describe("telemetry", () => {
  it("counts calls, failures by tool, rule and class, and repair outcomes", async () => {
    metrics.setGlobalMeterProvider(provider);
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
    await tool.call(JSON.stringify({ ...validInvoice, currency: "eur" }), { turn: "a" });
    await tool.call(JSON.stringify(validInvoice), { turn: "a" });
    await tool.call("{'x'", { turn: "b" });
    await tool.call("{'x'", { turn: "b" });
    const tool_ = { "gen_ai.tool.name": "create_invoice" };
    expect(counted).toEqual([
      ["toolguard.calls", 1, tool_],
      ["toolguard.validation_failed", 1, { ...tool_, "toolguard.failure": "structural" }],
      ["toolguard.rule_failures", 1, { ...tool_, "toolguard.rule": "enum", "toolguard.failure": "structural" }],
      ["toolguard.argument_errors", 1, { ...tool_, "toolguard.rule": "enum", "toolguard.failure": "structural" }],
      ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "validation_failed" }],
      ["toolguard.calls", 1, tool_],
      ["toolguard.repair_succeeded", 1, tool_],
      ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "ok" }],
      ["toolguard.calls", 1, tool_],
      ["toolguard.validation_failed", 1, { ...tool_, "toolguard.failure": "syntactic" }],
      ["toolguard.rule_failures", 1, { ...tool_, "toolguard.rule": "single_quotes", "toolguard.failure": "syntactic" }],
      ["toolguard.argument_errors", 1, { ...tool_, "toolguard.rule": "single_quotes", "toolguard.failure": "syntactic" }],
      ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "validation_failed" }],
      ["toolguard.calls", 1, tool_],
      ["toolguard.validation_failed", 1, { ...tool_, "toolguard.failure": "syntactic" }],
      ["toolguard.rule_failures", 1, { ...tool_, "toolguard.rule": "single_quotes", "toolguard.failure": "syntactic" }],
      ["toolguard.argument_errors", 1, { ...tool_, "toolguard.rule": "single_quotes", "toolguard.failure": "syntactic" }],
      ["toolguard.repair_exhausted", 1, tool_],
      ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "arguments_rejected" }],
    ]);
  });

  it("counts no failure for an attempt in a turn refused already, by call or by check", async () => {
    metrics.setGlobalMeterProvider(provider);
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
    await tool.call("{'x'", { turn: "r" });
    await tool.call("{'x'", { turn: "r" });
    counted.length = 0;
    const late = await tool.call("{'x'", { turn: "r" });
    const checked = tool.check("{'x'", { turn: "r" });
    expect(late.status).toBe("arguments_rejected");
    expect(checked.ok ? "ok" : checked.outcome.status).toBe("arguments_rejected");
    const tool_ = { "gen_ai.tool.name": "create_invoice" };
    expect(counted).toEqual([
      ["toolguard.calls", 1, tool_],
      ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "arguments_rejected" }],
      ["toolguard.calls", 1, tool_],
    ]);
  });

  describe("while nothing is registered with the OpenTelemetry API", () => {
    // The API's global (its global-utils.ts): made by the first registration, kept after `disable()`.
    const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");
    const slot = globalThis as { [API_GLOBAL]?: unknown };
    let saved: unknown;
    beforeEach(() => {
      saved = slot[API_GLOBAL];
      delete slot[API_GLOBAL];
    });
    afterEach(() => {
      vi.restoreAllMocks();
      metrics.disable();
      slot[API_GLOBAL] = saved;
    });

    it("a call and a check look no provider up, and the first registration is seen at once", async () => {
      const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
      await tool.call(JSON.stringify(validInvoice), { turn: "warm" });
      const lookups = vi.spyOn(metrics, "getMeterProvider");
      expect(telemetryRegistered()).toBe(false);
      expect((await tool.call(JSON.stringify(validInvoice), { turn: "a" })).status).toBe("ok");
      expect(tool.check(JSON.stringify(validInvoice), { turn: "b" }).ok).toBe(true);
      expect(lookups).toHaveBeenCalledTimes(0);
      // Registered through the API: the key `telemetryRegistered` reads is the API's own.
      metrics.setGlobalMeterProvider(provider);
      expect(telemetryRegistered()).toBe(true);
      counted.length = 0;
      tool.check(JSON.stringify(validInvoice), { turn: "c" });
      await tool.call(JSON.stringify(validInvoice), { turn: "d" });
      const tool_ = { "gen_ai.tool.name": "create_invoice" };
      expect(counted).toEqual([
        ["toolguard.calls", 1, tool_],
        ["toolguard.calls", 1, tool_],
        ["toolguard.outcomes", 1, { ...tool_, "toolguard.outcome": "ok" }],
      ]);
    });
  });

  describe("the meter provider is looked up once per call", () => {
    afterEach(() => {
      vi.restoreAllMocks();
      metrics.disable();
    });

    it.each([
      ["no SDK registered", false],
      ["a provider registered", true],
    ])("with %s: the tracing wrapper's lookup also counts the call", async (_, registered) => {
      if (registered) metrics.setGlobalMeterProvider(provider);
      const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
      await tool.call(JSON.stringify(validInvoice), { turn: "warm" });
      const lookups = vi.spyOn(metrics, "getMeterProvider");
      await tool.call(JSON.stringify(validInvoice), { turn: "c" });
      expect(lookups).toHaveBeenCalledTimes(1);
      // The loan ends with the call: check() and a repair's attempt look the provider up themselves.
      tool.check(JSON.stringify(validInvoice), { turn: "d" });
      expect(lookups).toHaveBeenCalledTimes(2);
    });
  });
});
