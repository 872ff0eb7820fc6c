// Issue 16.1: the JSONL sink writes the runtime's entries field by field (ledger/entry-text.ts)
// instead of JSON.stringify of a plain object. The line must hold the same value as
// JSON.stringify(entry) for every kind of entry the guard makes.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { entryLine } from "../../templates/runtime/ledger/line.ts";
import { entryArguments } from "../../templates/runtime/ledger/read.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";
import { readBack } from "./read-back.ts";

const withReference: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };

function capture(): { entries: LedgerEntry[]; ledger: { append(entry: LedgerEntry): void; flush(): Promise<void>; close(): Promise<void> } } {
  const entries: LedgerEntry[] = [];
  return { entries, ledger: { append: (entry) => entries.push(entry), flush: async () => undefined, close: async () => undefined } };
}

describe("an entry's line, written field by field", () => {
  it("holds the same value as JSON.stringify(entry) for every kind of entry", async () => {
    const { entries, ledger } = capture();
    const resolvers = {
      customer: (query: string) =>
        query === "Acme"
          ? [
              { id: "cus_1", label: "Acme BV" },
              { id: "cus_2", label: "Acme Ltd" },
            ]
          : [{ id: "cus_9", label: query }],
    };
    const timed = defineTool<unknown, unknown, "customer">(withReference).implement(() => "done", { ledger, resolvers, timing: true });
    const plain = defineTool(invoiceSpec()).implement(
      () => {
        throw new Error("down");
      },
      { ledger, maxLedgerTextChars: 64 },
    );
    const bad = JSON.stringify({ ...validInvoice, currency: "euro", amount: "12,50" });
    await timed.call(JSON.stringify({ ...validInvoice, amount: "1299" }), { turn: "coerced", finishReason: "stop" }); // coerced, resolved, timed
    await timed.call(bad, { turn: "repaired" });
    await timed.call(JSON.stringify(validInvoice), { turn: "repaired" }); // open, then repaired
    await timed.call(JSON.stringify({ ...validInvoice, customer_ref: "Acme" }), { turn: "question" }); // a question
    for (let i = 0; i < 12; i++) await timed.call("{not json", { turn: "refused" }); // rejected, then refused past the 8 attempts written
    await timed.call('{"a": "line\\u2028separator \\" quote"}', { turn: "escapes" });
    await plain.call(JSON.stringify(validInvoice), { turn: "error" }).catch(() => undefined); // the implementation threw; raw cut at 64
    // A clean call whose implementation read its idempotency key: the key follows `"repairs":0`.
    const keyed = defineTool(invoiceSpec()).implement((_args, context) => context.idempotencyKey, { ledger });
    await keyed.call(JSON.stringify(validInvoice), { turn: "keyed" });
    expect(entries.at(-1)?.idempotencyKey).toEqual(expect.any(String));
    // A repair whose last attempt is clean (no reference, no timing): `"repairs":1` ends it.
    const repairing = defineTool(invoiceSpec()).implement(() => "done", { ledger });
    await repairing.call(bad, { turn: "plain repair" });
    await repairing.call(JSON.stringify(validInvoice), { turn: "plain repair" });
    expect(entries.at(-1)).toMatchObject({ verdict: "repaired", repairs: 1, idempotencyKey: undefined });
    expect(entries.length).toBeGreaterThan(8);
    expect(entries.some((entry) => (JSON.parse(JSON.stringify(entry)) as LedgerEntry).attemptsOmitted! > 0)).toBe(true);
    const verdicts = new Set(entries.map((entry) => entry.verdict));
    for (const verdict of ["ok", "open", "repaired", "rejected", "error"]) expect(verdicts).toContain(verdict);
    for (const entry of entries) {
      const line = entryLine(entry, 1 << 20);
      expect(line.endsWith("\n")).toBe(true);
      expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(entry)));
    }
  });

  it("writes what the implementation received, when a reference changed the raw text (`argumentsResolved`)", async () => {
    const { entries, ledger } = capture();
    const received: unknown[] = [];
    const tool = defineTool<unknown, unknown, "customer">(withReference).implement((args) => void received.push(structuredClone(args)), {
      ledger,
      resolvers: { customer: () => [{ id: "cus_1", label: "Acme BV" }] },
    });
    await tool.call(' { "amount" : 5, "customer_ref" : "Acme BV", "currency":"EUR","due_date":"2026-01-31","line_items":[] } ', { turn: "t" });
    const written = readBack(entryLine(entries[0] as LedgerEntry, 1 << 20));
    expect(received).toHaveLength(1);
    // Version 3: the spaced text embedded as sent, the resolution beside it.
    expect(written).toMatchObject({ v: 3, argumentsResolved: true });
    expect(entryArguments(written)).toEqual(received[0]);
    expect(entryArguments(written)).toMatchObject({ customer_id: "cus_1" });
    expect(entryArguments(written)).not.toHaveProperty("customer_ref");
  });

  it("is a one-line, valid JSON text whatever the strings hold", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
    await tool.call('{"amount": "\u2028\n\t\\"}', { turn: "t\n\u0000\u2029" });
    const line = entryLine(entries[0] as LedgerEntry, 1 << 20);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(JSON.parse(line).turn).toBe("t\n\u0000\u2029");
  });
});
