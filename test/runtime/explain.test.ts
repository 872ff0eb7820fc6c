// Errors written for the model: path, rule, what was received, what to send.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { explainSchemaErrors, finish } from "../../templates/runtime/explain/explain.ts";
import type { HintTable } from "../../templates/runtime/contract/tool-spec.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { compile, invoiceSpec, validInvoice } from "./invoice-spec.ts";
import { compareTokens, pointerTokens } from "../../templates/runtime/json/json-pointer.ts";

async function errorsFor(args: unknown): Promise<{ path: string; rule: string; message: string }[]> {
  const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
  const outcome = await tool.call(JSON.stringify(args), { turn: String(Math.random()) });
  if (outcome.status !== "validation_failed") throw new Error(`expected validation_failed, got ${outcome.status}`);
  expect(outcome.detail).toMatch(/complete argument object, not a partial patch/);
  return outcome.errors.map((error) => ({ ...error }));
}

describe("explanations built once per schema location", () => {
  it("explain each later error at a location from its own value, as a fresh tool would", async () => {
    // One tool for every case, so later cases meet locations whose fixed text is already built.
    const warm = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
    const { customer_ref: _customer, ...withoutCustomer } = validInvoice;
    const { line_items: _items, amount: _amount, ...withoutItemsAndAmount } = validInvoice;
    const cases: unknown[] = [
      { ...validInvoice, amount: "1,299.00", currency: "eur" },
      { ...validInvoice, amount: "about twelve", currency: "gbp " },
      { ...validInvoice, amount: true, currency: "Usd" },
      { ...validInvoice, amount: -1, currency: "yen", colour: "red" },
      { ...withoutCustomer, amount: 10, currncy: "EUR" },
      { ...withoutItemsAndAmount, due_date: "tomorrow" },
      {
        ...validInvoice,
        line_items: [
          { quantity: "3", unit_price: "two" },
          { sku: "x", unit_price: 1 },
        ],
      },
      { ...validInvoice, due_date: "31/01/2026", line_items: [{ sku: "x", quantity: 0, unit_price: 1, note: "n" }] },
    ];
    for (const [index, args] of cases.entries()) {
      const outcome = await warm.call(JSON.stringify(args), { turn: `warm-${index}` });
      if (outcome.status !== "validation_failed") throw new Error(`case ${index}: expected validation_failed, got ${outcome.status}`);
      expect(
        outcome.errors.map((error) => ({ ...error })),
        `case ${index}`,
      ).toEqual(await errorsFor(args));
    }
  });
});

describe("messages remembered per received text", () => {
  it("say of each value sent again what a fresh tool says, past the memory's cap too", async () => {
    // A near miss's message and a text's type message are remembered per location and text: sent twice, each
    // value must still read as its own, and more values than are remembered still each get theirs.
    const warm = defineTool(invoiceSpec()).implement(() => "ok", { ledger: new MemorySink() });
    const sent = [
      "eur",
      "Usd",
      " gbp",
      "euro",
      "eur",
      "dollars",
      "Eur",
      ...Array.from({ length: 40 }, (_, index) => `eu${index % 3 === 0 ? "r" : "x"}${index}`),
    ];
    const amounts = ["$5", "12,5", "about twelve", "1.299,50 €", "$5", "true", "null", ...Array.from({ length: 40 }, (_, index) => `${index} EUR`)];
    for (const [index, currency] of [...sent, ...sent].entries()) {
      // A wrong currency (rules/enum.ts) and a text for the amount and a quantity (rules/type.ts), each remembered.
      const amount = amounts[index % amounts.length] as string;
      const args = { ...validInvoice, currency, amount, line_items: [{ sku: "SKU-1", quantity: amount, unit_price: 1 }] };
      const outcome = await warm.call(JSON.stringify(args), { turn: `again-${index}` });
      if (outcome.status !== "validation_failed") throw new Error(`${currency}: expected validation_failed, got ${outcome.status}`);
      expect(
        outcome.errors.map((error) => ({ ...error })),
        currency,
      ).toEqual(await errorsFor(args));
    }
  });
});

describe("the brief's envelope", () => {
  it("explains a formatted amount and a lower-case currency", async () => {
    const errors = await errorsFor({ ...validInvoice, amount: "1,299.00", currency: "eur" });
    expect(errors).toEqual([
      {
        path: "/amount",
        rule: "type",
        message: 'expected number, got string "1,299.00"; send 1299 as a JSON number — no quotes, no thousands separators, no currency symbols',
      },
      { path: "/currency", rule: "enum", message: 'got string "eur"; must be one of ["USD", "EUR", "GBP"] — did you mean "EUR"?' },
    ]);
  });

  it.each([
    ["$5", "send 5 as a JSON number"],
    ["1.299,50 €", "send 1299.5 as a JSON number"],
    ["12,5", "send 12.5 as a JSON number"],
    ["about twelve", "send a JSON number without quotes; for example 1299"],
  ])("gives number advice for %j", async (amount, advice) => {
    const [error] = await errorsFor({ ...validInvoice, amount });
    expect(error?.message).toContain(advice);
  });

  it("names the missing field with its description and an example, and never fills it", async () => {
    const { customer_ref: _, ...rest } = validInvoice;
    expect(await errorsFor(rest)).toEqual([
      {
        path: "/customer_ref",
        rule: "required",
        message:
          'missing required field "customer_ref" (Who is billed: a customer name or email.); for example "Acme BV"; if you do not know its value, ask the user instead of guessing',
      },
    ]);
  });

  it("names an unknown key, the closest allowed one, and every allowed key", async () => {
    const [error] = await errorsFor({ ...validInvoice, "customer-ref": "x" });
    expect(error).toEqual({
      path: "/customer-ref",
      rule: "additionalProperties",
      message:
        'unknown field "customer-ref"; did you mean "customer_ref"? It is sent already: remove it. This object accepts only amount, currency, customer_ref, due_date, line_items, paid',
    });
  });

  it("points into arrays and shortens what it echoes", async () => {
    const errors = await errorsFor({
      ...validInvoice,
      customer_ref: 7,
      line_items: [
        { sku: "A", quantity: 0, unit_price: 1 },
        { sku: "x".repeat(500), quantity: "2.5", unit_price: 1 },
      ],
    });
    expect(errors.map((error) => [error.path, error.rule])).toEqual([
      ["/customer_ref", "type"],
      ["/line_items/0/quantity", "minimum"],
      ["/line_items/1/quantity", "type"],
    ]);
    expect(errors[1]?.message).toBe("got integer 0; must be >= 1");
    expect(errors[2]?.message).toBe('expected integer, got string "2.5"; send a whole JSON number, without quotes');
    for (const error of errors) expect(error.message).not.toContain("x".repeat(50));
  });

  it("explains a bad format with an example, and the date a day-first form determines", async () => {
    const [error] = await errorsFor({ ...validInvoice, due_date: "31/01/2026" });
    expect(error).toEqual({
      path: "/due_date",
      rule: "format",
      message: 'got string "31/01/2026"; expected a date string such as "2026-01-31"; it reads as "2026-01-31": send "2026-01-31"',
    });
  });

  it("says yes/no are not booleans", async () => {
    const [error] = await errorsFor({ ...validInvoice, paid: "yes" });
    expect(error?.message).toBe('expected boolean, got string "yes"; send a JSON boolean (true or false), without quotes');
  });
});

describe("alternatives, duplicates and the cap", () => {
  const schema = {
    type: "object",
    properties: {
      when: {
        anyOf: [
          { type: "string", format: "date" },
          { type: "integer", minimum: 0 },
        ],
      },
      pick: { oneOf: [{ type: "string" }, { type: "string", minLength: 1 }] },
    },
  };
  const hints: HintTable = { "#/properties/when": { types: ["string", "integer"], example: "2026-01-31" } };

  it("reports a failed anyOf once, with a summary, not every branch", () => {
    const validate = compile(schema);
    validate({ when: true });
    const errors = explainSchemaErrors(validate.errors ?? [], { when: true }, hints, 20);
    expect(errors).toEqual([
      {
        path: "/when",
        rule: "anyOf",
        message: 'got boolean true; it matches none of the allowed shapes (accepted types: string, integer); for example "2026-01-31"',
      },
    ]);
  });

  it("says when a oneOf is ambiguous", () => {
    const validate = compile(schema);
    validate({ pick: "a" });
    const [error] = explainSchemaErrors(validate.errors ?? [], { pick: "a" }, {}, 20);
    expect(error?.rule).toBe("oneOf");
    expect(error?.message).toContain("more than one");
  });

  it("deduplicates, orders by path with numeric indices, and caps with 'and N more'", () => {
    const e = (path: string): { path: string; rule: string; message: string } => ({ path, rule: "type", message: "m" });
    const listed = finish([e("/b"), e("/a/10"), e("/a/2"), e("/a/2"), e(""), e("/a")], 20);
    expect(listed.map((error) => error.path)).toEqual(["", "/a", "/a/2", "/a/10", "/b"]);
    const capped = finish(
      Array.from({ length: 30 }, (_, i) => e(`/x/${i}`)),
      5,
    );
    expect(capped).toHaveLength(5);
    expect(capped[4]).toEqual({
      path: "",
      rule: "more_errors",
      message: "and 26 more errors not listed; check every field against the schema before resending",
    });
  });
});

describe("finish", () => {
  it("is a stable sort by path (indices numerically) and rule, without repeats, for short and long lists", () => {
    const error = fc.record({
      path: fc.array(fc.constantFrom("a", "b", "0", "2", "10", "a~1b"), { maxLength: 3 }).map((tokens) => tokens.map((token) => `/${token}`).join("")),
      rule: fc.constantFrom("type", "enum"),
      message: fc.constantFrom("m1", "m2", "m3"),
    });
    const byPathAndRule = (a: { path: string; rule: string }, b: { path: string; rule: string }): number =>
      compareTokens(pointerTokens(a.path), pointerTokens(b.path)) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
    fc.assert(
      fc.property(fc.array(error, { maxLength: 40 }), (errors) => {
        const expected = [...errors]
          .sort(byPathAndRule)
          .filter(
            (item, index, all) => all.findIndex((other) => other.path === item.path && other.rule === item.rule && other.message === item.message) === index,
          );
        expect(finish(errors, 1000)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
