// An open chain keeps a failed attempt's text, not its explained errors (most of its memory), and
// derives the errors again for the chain's later entries: they must read exactly as the entry
// written at the failure did.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { StoredAttempt } from "../../templates/runtime/call/stored-attempt.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

function keeping() {
  const entries: LedgerEntry[] = [];
  return { entries, sink: { append: (entry: LedgerEntry) => void entries.push(entry), flush: () => Promise.resolve(), close: () => Promise.resolve() } };
}

describe("failed attempts in open chains", () => {
  it("are kept as their text and written with the same errors in every later entry", async () => {
    const { entries, sink } = keeping();
    const tool = defineTool(invoiceSpec()).implement(() => "inv_1", { ledger: sink });
    const turn = "stored-1";
    const first = JSON.stringify({ ...validInvoice, amount: "12,99x", currency: "eur", extra: 1, line_items: [{ sku: 1, quantity: 0 }] });
    await tool.call('{"amount": 12', { turn, finishReason: "length" });
    await tool.call(first, { turn });
    expect((await tool.call(JSON.stringify(validInvoice), { turn })).status).toBe("ok");
    const [open, second, repaired] = entries.map((entry) => JSON.parse(JSON.stringify(entry)) as LedgerEntry);
    expect(entries[2]?.attempts[0]).toBeInstanceOf(StoredAttempt);
    expect(entries[2]?.attempts[1]).toBeInstanceOf(StoredAttempt);
    expect(second?.attempts[1]?.errors.length).toBeGreaterThanOrEqual(5);
    expect(second?.attempts[0]).toEqual(open?.attempts[0]);
    expect(repaired?.attempts.slice(0, 2)).toEqual(second?.attempts);
    expect(repaired?.verdict).toBe("repaired");
    // A copy made with a spread (as a redacting sink might) carries the errors too, in the same key order.
    const copy = { ...(entries[2]?.attempts[1] as object) };
    expect(Object.keys(copy)).toEqual(Object.keys(entries[1]?.attempts[1] ?? {}));
    expect(copy).toEqual(second?.attempts[1]);
  });

  it("keeps a parsed value's attempt as it was (its errors are not its text's)", async () => {
    const { entries, sink } = keeping();
    const tool = defineTool(invoiceSpec()).implement(() => "inv_1", { ledger: sink });
    await tool.call({ ...validInvoice, currency: "euro" }, { turn: "stored-2" });
    await tool.call({ ...validInvoice, currency: "euro" }, { turn: "stored-2" });
    expect(entries[1]?.attempts[0]).not.toBeInstanceOf(StoredAttempt);
  });
});
