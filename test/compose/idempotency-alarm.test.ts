// The idempotency alarm where operators look (issue 29): a key that already ran with other
// arguments is a warning through the guard's logger (by default a Node process warning) and an
// error status on the call's span, checked with the real OpenTelemetry SDK. A replay is not.
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, type GuardLogger, IDEMPOTENCY_CONFLICT_CODE, MemoryIdempotencyStore, MemorySink } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

type Invoice = typeof validInvoice;
const text = (value: object): string => JSON.stringify(value);

afterEach(() => {
  trace.disable();
});

function spans(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  return exporter;
}

/** Invoices keyed by customer and currency, so the same intent with another amount conflicts. */
function invoices(logger?: GuardLogger) {
  return defineTool<Invoice>(invoiceSpec()).implement(() => ({ invoice: "inv_1" }), {
    ledger: new MemorySink(),
    idempotency: { store: new MemoryIdempotencyStore(), keyOf: (args) => `${args.customer_ref}:${args.currency}` },
    ...(logger ? { logger } : {}),
  });
}

describe("the idempotency alarm", () => {
  it("warns once through the logger, with the tool, the key and both fingerprints; a replay does not warn", async () => {
    const warnings: { message: string; fields: Readonly<Record<string, string | number>> }[] = [];
    const tool = invoices({ warn: (message, fields) => warnings.push({ message, fields }) });
    await tool.call(text(validInvoice), { turn: "t1" });
    expect((await tool.call(text(validInvoice), { turn: "t2" })).status).toBe("ok");
    expect(warnings).toEqual([]);
    expect((await tool.call(text({ ...validInvoice, amount: 5 }), { turn: "t3" })).status).toBe("idempotency_conflict");
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning?.message).toBe(
      'toolguard: idempotency conflict on create_invoice: key "Acme BV:EUR" already ran with other arguments; this call was refused and nothing ran',
    );
    expect(warning?.fields).toMatchObject({ code: IDEMPOTENCY_CONFLICT_CODE, tool: "create_invoice", idempotencyKey: "Acme BV:EUR" });
    expect(warning?.fields["fingerprint"]).toMatch(/^[0-9a-f]{64}$/);
    expect(warning?.fields["storedFingerprint"]).toMatch(/^[0-9a-f]{64}$/);
    expect(warning?.fields["fingerprint"]).not.toBe(warning?.fields["storedFingerprint"]);
  });

  it("is a process warning with its code when no logger is given", async () => {
    const seen: Error[] = [];
    const listener = (warning: Error): void => void seen.push(warning);
    process.on("warning", listener);
    try {
      const tool = invoices();
      await tool.call(text(validInvoice), { turn: "t1" });
      await tool.call(text({ ...validInvoice, amount: 5 }), { turn: "t2" });
      // Node emits warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listener);
    }
    const ours = seen.filter((warning) => (warning as Error & { code?: string }).code === IDEMPOTENCY_CONFLICT_CODE);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.name).toBe("ToolguardWarning");
    expect(ours[0]?.message).toContain('key "Acme BV:EUR" already ran with other arguments');
  });

  it("sets the span's status to error with the alarm as its message, and the key as an attribute", async () => {
    const exporter = spans();
    const tool = invoices({ warn: () => {} });
    await tool.call(text(validInvoice), { turn: "t1" });
    await tool.call(text({ ...validInvoice, amount: 5 }), { turn: "t2" });
    const [first, conflict] = exporter.getFinishedSpans();
    expect(first?.status.code).toBe(0); // UNSET: the first run is fine
    expect(conflict?.status.code).toBe(2); // ERROR
    expect(conflict?.status.message).toBe(
      'toolguard: idempotency conflict on create_invoice: key "Acme BV:EUR" already ran with other arguments; this call was refused and nothing ran',
    );
    expect(conflict?.attributes).toMatchObject({
      "toolguard.outcome": "idempotency_conflict",
      "toolguard.idempotency_key": "Acme BV:EUR",
      "error.type": "idempotency_conflict",
    });
  });

  it("a logger that throws does not turn the refusal into a thrown call", async () => {
    const tool = invoices({
      warn: () => {
        throw new Error("log shipper down");
      },
    });
    await tool.call(text(validInvoice), { turn: "t1" });
    await expect(tool.call(text({ ...validInvoice, amount: 5 }), { turn: "t2" })).resolves.toMatchObject({ status: "idempotency_conflict" });
  });
});
