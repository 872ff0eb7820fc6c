// `check` makes the snapshot of the passing arguments only where it is read (call/checked.ts,
// guard.ts `#checked`): for the ledger entry when the arguments differ from the raw text, and
// for the idempotency key when the caller reads it. Held here to what `call` gives.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

const implementation = (): string => "done";

describe("check's snapshot, made where it is read", () => {
  it("gives the key call gives, for arguments as sent and for coerced ones", async () => {
    const tool = defineTool(invoiceSpec()).implement(implementation, { ledger: new MemorySink() });
    for (const body of [validInvoice, { ...validInvoice, amount: "1299" }]) {
      const text = JSON.stringify(body);
      const checked = tool.check(text, { turn: `check-${String(body.amount)}` });
      const called = await tool.call(text, { turn: `call-${String(body.amount)}` });
      if (!checked.ok || called.status !== "ok") throw new Error("refused a valid body");
      expect(checked.idempotencyKey).toMatch(/\S/);
      expect(checked.idempotencyKey).toBe(called.idempotencyKey);
      expect(checked.idempotencyKey).toBe(checked.idempotencyKey);
    }
  });

  it("writes the coerced arguments into the entry, and none for arguments as sent", () => {
    const sink = new MemorySink();
    const tool = defineTool(invoiceSpec()).implement(implementation, { ledger: sink });
    expect(tool.check(JSON.stringify(validInvoice), { turn: "as-sent" }).ok).toBe(true);
    expect(tool.check(JSON.stringify({ ...validInvoice, amount: "1299" }), { turn: "coerced" }).ok).toBe(true);
    const [asSent, coerced] = sink.entries;
    expect(asSent).not.toHaveProperty("arguments");
    expect(coerced?.arguments).toEqual(validInvoice);
    expect(coerced).not.toHaveProperty("idempotencyKey");
  });
});
