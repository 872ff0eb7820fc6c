// The guard's measurements allocate no attribute map per call: the call count, the duration and
// the outcome count of one tool and outcome receive the same frozen object on every call (the
// SDK hashes attributes on each record; toolguard does not add an allocation to it). A recording
// meter provider stands in for the SDK here because the question is which object the API is
// handed; test/compose/tracing.test.ts checks the values with the real SDK.
import { type Attributes, metrics } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { defineTool, MemorySink } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

afterEach(() => {
  metrics.disable();
});

it("hands the same frozen attributes to every record of one tool and outcome", async () => {
  const seen = new Map<string, Attributes[]>();
  const instrument = (name: string) => {
    const record = (_value: number, attributes?: Attributes): void => void seen.set(name, [...(seen.get(name) ?? []), attributes ?? {}]);
    return { add: record, record };
  };
  const meter = { createCounter: instrument, createHistogram: instrument };
  metrics.setGlobalMeterProvider({ getMeter: () => meter as never });
  const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink() });
  for (const turn of ["a", "b", "c"]) expect((await tool.call(JSON.stringify(validInvoice), { turn })).status).toBe("ok");
  for (const name of ["toolguard.calls", "toolguard.call.duration", "toolguard.outcomes"]) {
    const records = seen.get(name) ?? [];
    expect(records).toHaveLength(3);
    expect(new Set(records).size).toBe(1);
    expect(Object.isFrozen(records[0])).toBe(true);
  }
  expect(seen.get("toolguard.outcomes")?.[0]).toEqual({ "gen_ai.tool.name": "create_invoice", "toolguard.outcome": "ok" });
});
