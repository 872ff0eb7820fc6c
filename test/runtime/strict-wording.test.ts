// Wording that fits strict mode and the refusal: a field strict mode makes required and
// nullable is described with "send null", not the author's "omit it"; a null sent where a value
// is required reads "got null"; a call refused only because the budget is spent is not told
// that its own errors name anything.
import { describe, expect, it } from "vitest";
import { createInvoice, MemorySink } from "../../generated/index.js";
import type { InputSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { NULL_MEANS_ABSENT, strictNullableDescription } from "../../templates/runtime/providers/strict-description.ts";
import { strictVariant } from "../../templates/runtime/providers/strict-schema.ts";

describe("descriptions of fields strict mode makes nullable", () => {
  it.each([
    ["Payment due date. Optional: omit it for the standard terms.", "Payment due date. Optional: send null for the standard terms."],
    ["Omit this field to use the default branch.", "Send null to use the default branch."],
    ["Omit to list every status.", "Send null to list every status."],
    ["If omitted, 30 days.", "If null, 30 days."],
    ["Defaults to 10 when not given.", "Defaults to 10 when null."],
    ["May be omitted.", "May be null."],
    ["Leave it out for all regions.", "Send null for all regions."],
    ["Free text.", `Free text. ${NULL_MEANS_ABSENT}`],
    ["Page size", `Page size. ${NULL_MEANS_ABSENT}`],
    ["A date, or null for none.", "A date, or null for none."],
    [undefined, NULL_MEANS_ABSENT],
  ])("%j reads %j", (written, strict) => {
    expect(strictNullableDescription(written)).toBe(strict);
  });

  it("applies to every nullable place of the strict variant, and to no required field", () => {
    const schema = {
      type: "object",
      properties: {
        due: { type: "string", description: "Optional: omit it for the standard terms." },
        id: { type: "string", description: "Omit it and the call fails." },
        lines: { type: "array", items: { type: "object", properties: { note: { $ref: "#/$defs/note", description: "Skip it if none." } } } },
      },
      required: ["id", "lines"],
      $defs: { note: { type: "string" } },
    } as unknown as InputSchema;
    const properties = strictVariant(schema).schema?.properties as Record<string, { description?: string; items?: { properties: Record<string, unknown> } }>;
    expect(properties.due?.description).toBe("Optional: send null for the standard terms.");
    expect(properties.id?.description).toBe("Omit it and the call fails.");
    expect(properties.lines?.items?.properties.note).toMatchObject({ description: "Send null if none." });
  });

  it("leaves the tool's own schema as its author wrote it", () => {
    const own = createInvoice.inputSchema as unknown as { properties: { due_date: { description: string } } };
    expect(own.properties.due_date.description).toContain("Optional: omit it");
  });
});

describe("messages for null and for a call refused unchecked", () => {
  const bench = () =>
    createInvoice.implement(() => ({ invoice: "inv_1" }), {
      ledger: new MemorySink(),
      resolvers: { customer: () => [{ id: "cus_1", label: "Acme" }] },
    });
  const ITEMS = `[{"sku": "SKU-1042", "quantity": 1, "unit_price": 1299}]`;

  it("a null sent for a required field reads 'got null', not 'got null null'", async () => {
    const outcome = await bench().call(`{"amount": null, "currency": "EUR", "customer_ref": "Acme", "line_items": ${ITEMS}}`, { turn: "n" });
    expect(outcome).toMatchObject({ status: "validation_failed", errors: [{ path: "/amount", rule: "type" }] });
    const [error] = (outcome as unknown as { errors: readonly { message: string }[] }).errors;
    expect(error?.message).toMatch(/^expected number, got null; /);
    expect(error?.message).not.toContain("null null");
  });

  it("a correct call refused for the spent budget: its detail does not send the model to errors that name nothing", async () => {
    const tool = bench();
    const invalid = `{"amount": "1,299.00", "currency": "eur", "customer_ref": "Acme", "line_items": ${ITEMS}}`;
    await tool.call(invalid, { turn: "r" });
    await tool.call(invalid, { turn: "r" });
    const outcome = (await tool.call(`{"amount": 1299, "currency": "EUR", "customer_ref": "Acme", "line_items": ${ITEMS}}`, { turn: "r" })) as unknown as {
      status: string;
      errors: readonly { rule: string }[];
      detail: string;
    };
    expect(outcome.status).toBe("arguments_rejected");
    expect(outcome.errors.map((error) => error.rule)).toEqual(["repair_budget"]);
    expect(outcome.detail).not.toContain("the errors name");
    expect(outcome.detail).toContain("These arguments were not checked.");
    expect(outcome.detail).toContain("the errors of the earlier create_invoice calls named");
  });
});
