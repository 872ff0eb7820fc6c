// The brief's invoice, played by a scripted model through each SDK adapter: the tool, its spy
// implementation and ledger, the argument texts a model sends, and the envelopes the model must
// get back (the same words whichever SDK carries them).
import { createInvoice, MemorySink, type DescribedTool, type LedgerEntry } from "../../generated/index.js";

export const TOOL = "create_invoice";

const ITEMS = `[{"sku": "SKU-1042", "quantity": 1, "unit_price": 1299}]`;
/** The brief's mistake: a formatted amount and a lower-case currency. */
export const INVALID = `{"amount": "1,299.00", "currency": "eur", "customer_ref": "Acme BV", "line_items": ${ITEMS}}`;
export const VALID = `{"amount": 1299, "currency": "EUR", "customer_ref": "Acme BV", "line_items": ${ITEMS}}`;
/** What a strict-mode model sends for the same call: every optional field present, as null. */
export const VALID_STRICT = `{"amount": 1299, "currency": "EUR", "customer_ref": "Acme BV", "due_date": null, "line_items": ${ITEMS}, "memo": null}`;
export const NOT_JSON = `{'amount': 1299, 'currency': 'EUR'}`;
export const CUT_OFF = `{"amount": 1299, "currency": "EUR", "customer_ref": "Acme`;

/** What the implementation must receive for the valid call: the reference resolved. */
export const RECEIVED = { amount: 1299, currency: "EUR", customer_id: "cus_00181", line_items: [{ sku: "SKU-1042", quantity: 1, unit_price: 1299 }] };

export interface InvoiceBench {
  readonly tool: DescribedTool;
  readonly received: unknown[];
  readonly ledger: MemorySink;
  /** The final ledger entry of each chain, in order. */
  chains(): LedgerEntry[];
}

export function invoiceBench(): InvoiceBench {
  const received: unknown[] = [];
  const ledger = new MemorySink();
  const tool = createInvoice.implement(
    (args) => {
      received.push(structuredClone(args));
      return { invoice: "inv_1" };
    },
    { ledger, resolvers: { customer: (text) => (text === "Acme BV" ? [{ id: "cus_00181", label: "Acme BV (Rotterdam)" }] : []) } },
  );
  return { tool, received, ledger, chains: () => ledger.chains() };
}

/** The envelope for INVALID as the first attempt of a chain. */
export const INVALID_ENVELOPE = {
  status: "validation_failed",
  tool: TOOL,
  failure: "structural",
  errors: [
    {
      path: "/amount",
      rule: "type",
      message: 'expected number, got string "1,299.00"; send 1299 as a JSON number — no quotes, no thousands separators, no currency symbols',
    },
    { path: "/currency", rule: "enum", message: 'got string "eur"; must be one of ["USD", "EUR", "GBP"] — did you mean "EUR"?' },
  ],
  detail: `Fix every field listed in errors and call ${TOOL} again with the complete argument object, not a partial patch. This is the last attempt this turn.`,
  attempts: 1,
  repairsLeft: 1,
};

/** The refusal for INVALID sent a second time in the same turn. */
export const REFUSAL = {
  status: "arguments_rejected",
  tool: TOOL,
  failure: "structural",
  errors: INVALID_ENVELOPE.errors,
  detail: `The arguments for ${TOOL} failed 2 times in this turn; ${TOOL} accepts no more calls in it. Do not retry. Ask the user for the missing or unclear information the errors name, then call ${TOOL} in a new turn.`,
  attempts: 2,
};

/** The ok outcome of the repaired call; `key` is what to expect of its idempotency key. */
export function okOutcome(attempts: number, key: unknown): Record<string, unknown> {
  return { status: "ok", tool: TOOL, result: { invoice: "inv_1" }, coercions: [], attempts, idempotencyKey: key };
}
