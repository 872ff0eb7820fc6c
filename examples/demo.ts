// A scripted conversation against the generated example package, as a tool team would wire it:
// the model's tool calls go into the guarded client, the outcomes go back to the model.
// Run with `npm run demo` (after `npm run generate`).
import { createInvoice, MemorySink, type Candidate, type Outcome } from "../generated/index.js";

const CUSTOMERS: readonly Candidate[] = [
  { id: "cus_00181", label: "Acme BV (Rotterdam)" },
  { id: "cus_00922", label: "Acme Holding BV (Antwerp)" },
  { id: "cus_00400", label: "Globex GmbH (Berlin)" },
];

const ledger = new MemorySink();
const invoices = createInvoice.implement(
  (args, ctx) => `draft invoice for ${args.customer_id}: ${args.amount} ${args.currency} (key ${ctx.idempotencyKey.slice(0, 12)}…)`,
  {
    ledger,
    resolvers: { customer: (text) => CUSTOMERS.filter((c) => c.label.toLowerCase().includes(text.toLowerCase())) },
  },
);

const line = { sku: "SKU-1042", quantity: 1, unit_price: 1299 };

interface ModelCall {
  readonly say: string;
  readonly arguments: string;
  readonly finishReason?: string;
}

/** Plays one turn: each scripted model call goes through the guard until the turn ends. */
async function turn(title: string, calls: readonly ModelCall[]): Promise<void> {
  console.log(`\n=== ${title}`);
  for (const call of calls) {
    console.log(`model> ${call.say}\n        ${call.arguments}${call.finishReason ? `   (finish_reason: ${call.finishReason})` : ""}`);
    const outcome: Outcome<string> = await invoices.call(call.arguments, { turn: title, finishReason: call.finishReason });
    console.log(`guard> ${JSON.stringify(outcome, null, 2).replaceAll("\n", "\n       ")}`);
    if (outcome.status === "ok" || outcome.status === "arguments_rejected") return;
  }
}

await turn("a locale-formatted amount, repaired once", [
  { say: "invoice Globex for 1,299 euros", arguments: JSON.stringify({ amount: "1,299.00", currency: "eur", customer_ref: "Globex", line_items: [line] }) },
  { say: "(repairs every listed field)", arguments: JSON.stringify({ amount: 1299, currency: "EUR", customer_ref: "Globex", line_items: [line] }) },
]);

await turn("an ambiguous customer, answered from the real candidates", [
  { say: "invoice Acme for 1299 euros", arguments: JSON.stringify({ amount: 1299, currency: "EUR", customer_ref: "Acme", line_items: [line] }) },
  { say: "(the user meant the Antwerp one)", arguments: JSON.stringify({ amount: 1299, currency: "EUR", customer_ref: "cus_00922", line_items: [line] }) },
]);

await turn("output cut off by the token limit: two repairs allowed", [
  {
    say: "invoice Globex, 40 line items",
    arguments: '{"amount": 1299, "currency": "EUR", "customer_ref": "Globex", "line_items": [{"sku": "SKU-1',
    finishReason: "length",
  },
  { say: "(still too long)", arguments: '{"amount": 1299, "currency": "EUR", "customer_ref": "Glo', finishReason: "length" },
  { say: "(shorter)", arguments: JSON.stringify({ amount: 1299, currency: "EUR", customer_ref: "Globex", line_items: [line] }) },
]);

await turn("a model that cannot get it right is refused, not looped", [
  { say: "invoice somebody, whatever", arguments: JSON.stringify({ amount: "$5", currency: "euros" }) },
  { say: "(tries again)", arguments: JSON.stringify({ amount: "5 dollars", currency: "USD" }) },
  { say: "(would try forever)", arguments: JSON.stringify({ amount: 5, currency: "USD" }) },
]);

console.log("\n=== the ledger: one entry per chain");
// A chain is written again each time it waits for the model; its last entry is its record.
for (const entry of ledger.chains()) {
  console.log(`${entry.turn}: ${entry.verdict}, ${entry.attempts.length} attempt(s), ${entry.repairs} repair(s)`);
}
