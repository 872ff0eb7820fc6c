// The invoice tool from the brief, built the way a generated module would be: a compiled ajv
// validator plus hand-written coercion and hint tables.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";

export const invoiceSchema = {
  type: "object",
  properties: {
    amount: { type: "number", description: "Total amount, a plain number." },
    currency: { type: "string", enum: ["USD", "EUR", "GBP"], description: "ISO 4217 code, uppercase." },
    customer_ref: { type: "string", description: "Who is billed: a customer name or email.", examples: ["Acme BV"] },
    due_date: { type: "string", format: "date" },
    line_items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          sku: { type: "string" },
          quantity: { type: "integer", minimum: 1 },
          unit_price: { type: "number" },
        },
        required: ["sku", "quantity", "unit_price"],
        additionalProperties: false,
      },
    },
    paid: { type: "boolean" },
  },
  required: ["amount", "currency", "customer_ref", "line_items"],
  additionalProperties: false,
} as const;

export function compile(schema: object): StandaloneValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addFormat("date", { validate: (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) });
  return ajv.compile(schema) as unknown as StandaloneValidator;
}

export function invoiceSpec(): ToolSpec {
  return {
    name: "create_invoice",
    description: "Create an invoice for a customer.",
    inputSchema: { ...invoiceSchema, required: [...invoiceSchema.required] },
    validate: compile(invoiceSchema),
    coercions: {
      "/amount": "number",
      "/line_items/*/quantity": "integer",
      "/line_items/*/unit_price": "number",
      "/paid": "boolean",
    },
    hints: {
      "#": {
        types: ["object"],
        properties: ["amount", "currency", "customer_ref", "due_date", "line_items", "paid"],
        propertyDescriptions: {
          amount: "Total amount, a plain number.",
          currency: "ISO 4217 code, uppercase.",
          customer_ref: "Who is billed: a customer name or email.",
        },
        propertyExamples: { amount: 1299, currency: "USD", customer_ref: "Acme BV", line_items: [{ sku: "SKU-1", quantity: 1, unit_price: 10 }] },
      },
      "#/properties/amount": { types: ["number"], example: 1299 },
      "#/properties/currency": {
        types: ["string"],
        allowed: ["USD", "EUR", "GBP"],
        nearMisses: { usd: "USD", eur: "EUR", gbp: "GBP", "€": "EUR", $: "USD", "£": "GBP" },
      },
      "#/properties/customer_ref": { types: ["string"], example: "Acme BV" },
      "#/properties/due_date": { types: ["string"], format: "date", example: "2026-01-31" },
      "#/properties/line_items/items": { types: ["object"], properties: ["sku", "quantity", "unit_price"] },
      "#/properties/line_items/items/properties/quantity": { types: ["integer"], example: 1 },
    },
    references: {},
  };
}

/** A valid invoice, as the model would send it once it gets things right. */
export const validInvoice = {
  amount: 1299,
  currency: "EUR",
  customer_ref: "Acme BV",
  due_date: "2026-01-31",
  line_items: [{ sku: "WIDGET-1", quantity: 1, unit_price: 1299 }],
};
