// A rejected call is instant (rule 3 and issue 3's speed claim): the guard awaits nothing before
// it returns a failure envelope. Nothing here ever settles (the ledger's flush, the
// implementation), yet each failed call's outcome is there after a single microtask turn, the
// least any promise-returning function can take.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { LedgerEntry, LedgerSink } from "../../templates/runtime/ledger/ledger.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

class StuckSink implements LedgerSink {
  readonly entries: LedgerEntry[] = [];
  append(entry: LedgerEntry): void {
    this.entries.push(entry);
  }
  flush(): Promise<void> {
    return new Promise(() => undefined);
  }
  close(): Promise<void> {
    return new Promise(() => undefined);
  }
}

/** Calls, then lets exactly one microtask turn pass, and reports what had arrived by then. */
async function afterOneTurn<T>(promise: Promise<T>): Promise<{ settled: boolean; value?: T }> {
  const seen: { settled: boolean; value?: T } = { settled: false };
  void promise.then((value) => {
    seen.settled = true;
    seen.value = value;
  });
  await Promise.resolve();
  return seen;
}

describe("a failed call awaits nothing", () => {
  const FAILURES: Record<string, string> = {
    syntactic: '{"amount": 12, "currency": "EUR", ',
    structural: JSON.stringify({ ...validInvoice, currency: "eur", amount: "1,299.00" }),
    "over the size cap": `"${"x".repeat(2_000_000)}"`,
  };

  it.each(Object.entries(FAILURES))("returns the %s envelope after one microtask turn", async (_kind, raw) => {
    const ledger = new StuckSink();
    let ran = false;
    const never = new Promise<never>(() => undefined);
    const tool = defineTool<typeof validInvoice>(invoiceSpec()).implement(
      () => {
        ran = true;
        return never;
      },
      { ledger },
    );
    const seen = await afterOneTurn(tool.call(raw, { turn: `turn-${_kind}` }));
    expect(seen.settled).toBe(true);
    expect(seen.value?.status).toBe("validation_failed");
    expect(ran).toBe(false);
  });

  it("refuses past the repair budget just as fast", async () => {
    const tool = defineTool<typeof validInvoice>(invoiceSpec()).implement(() => "never", { ledger: new StuckSink() });
    const bad = JSON.stringify({ ...validInvoice, currency: "eur" });
    await tool.call(bad, { turn: "budget" });
    const second = await afterOneTurn(tool.call(bad, { turn: "budget" }));
    expect(second.settled).toBe(true);
    expect(second.value?.status).toBe("arguments_rejected");
  });
});
