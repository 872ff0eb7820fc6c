// The brief's invoice, end to end through the committed generated package: the real schema,
// the generated validator, coercion and hint tables, and the customer reference resolved.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createInvoice, MemorySink, type Candidate } from "../../generated/index.js";

const CUSTOMERS: readonly Candidate[] = [
  { id: "cus_00181", label: "Acme BV (Rotterdam)" },
  { id: "cus_00922", label: "Acme Holding BV (Antwerp)" },
];
const line = { sku: "SKU-1042", quantity: 1, unit_price: 1299 };

function bind() {
  const ledger = new MemorySink();
  const invocations: unknown[] = [];
  const tool = createInvoice.implement(
    (args) => {
      invocations.push(structuredClone(args));
      return "inv_1";
    },
    { ledger, resolvers: { customer: (text) => CUSTOMERS.filter((c) => c.label.toLowerCase().includes(text.toLowerCase())) } },
  );
  return { tool, ledger, invocations };
}

describe("create_invoice, generated", () => {
  it("malformed arguments never reach the tool; the repaired call does, once", async () => {
    const { tool, ledger, invocations } = bind();
    const first = await tool.call(JSON.stringify({ amount: "1,299.00", currency: "eur", customer_ref: "Acme BV", line_items: [line] }), { turn: "t" });
    expect(first.status).toBe("validation_failed");
    const second = await tool.call(JSON.stringify({ amount: 1299.0, currency: "EUR", customer_ref: "Acme BV", line_items: [line] }), { turn: "t" });
    expect(second.status).toBe("ok");
    expect(invocations).toEqual([{ amount: 1299, currency: "EUR", customer_id: "cus_00181", line_items: [line] }]);
    const [entry] = ledger.chains();
    expect(entry?.repairs).toBe(1);
    expect(entry?.attempts.flatMap((attempt) => attempt.coercions)).toEqual([]); // "1,299.00" rejected, not coerced
  });

  it("the README's example envelope is what the model really receives", async () => {
    const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const block = /When the model sends[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const { tool } = bind();
    const outcome = await tool.call(JSON.stringify({ amount: "1,299.00", currency: "eur", customer_ref: "Acme BV", line_items: [line] }), { turn: "readme" });
    expect(outcome).toEqual(JSON.parse(block as string));
  });
});
