// References, not IDs (rule 8): the model names a customer in words, the resolver finds the
// real candidates. One proceeds with the identifier; none is a semantic error; several are a
// question with real candidates, after which only an offered identifier is accepted. A failing
// resolver is a dependency failure, thrown, never dressed up as the model's mistake.
import { describe, expect, it } from "vitest";
import type { Candidate, Resolver } from "../../templates/runtime/contract/api.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { entryArguments } from "../../templates/runtime/ledger/read.ts";
import { ReferenceResolverError } from "../../templates/runtime/resolve/resolver-lookup.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { compile, invoiceSchema, invoiceSpec, validInvoice } from "./invoice-spec.ts";

const CUSTOMERS: readonly Candidate[] = [
  { id: "cus_00181", label: "Acme BV (Rotterdam)" },
  { id: "cus_00922", label: "Acme Holding BV (Antwerp)" },
  { id: "cus_00400", label: "Globex GmbH (Berlin)" },
];

/** A CRM search: every customer whose label contains the text, case-insensitively. */
const searchCustomers: Resolver = (text) => CUSTOMERS.filter((customer) => customer.label.toLowerCase().includes(text.toLowerCase()));

const spec: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };

function bind(resolver: Resolver = searchCustomers, extra: object = {}) {
  const ledger = new MemorySink();
  const received: unknown[] = [];
  const tool = defineTool<unknown, Record<string, unknown>, "customer">(spec).implement(
    (args) => {
      received.push(structuredClone(args));
      return "inv_1";
    },
    { ledger, resolvers: { customer: resolver }, ...extra },
  );
  return { tool, ledger, received };
}

const invoice = (customer_ref: unknown) => JSON.stringify({ ...validInvoice, customer_ref });

describe("reference resolution", () => {
  it("one candidate: the implementation gets the identifier, never the model's text", async () => {
    const { tool, ledger, received } = bind();
    const outcome = await tool.call(invoice("globex"), { turn: "t1" });
    expect(outcome.status).toBe("ok");
    const { customer_ref: _text, ...rest } = validInvoice;
    expect(received).toEqual([{ ...rest, customer_id: "cus_00400" }]);
    const [entry] = ledger.chains();
    expect(entry).toMatchObject({ v: 2, verdict: "ok", repairs: 0, argumentsResolved: true });
    expect(entryArguments(entry!)).toEqual({ ...rest, customer_id: "cus_00400" });
    expect(entry?.attempts[0]?.resolutions).toEqual([{ path: "/customer_ref", text: "globex", id: "cus_00400", target: "customer_id" }]);
    expect(JSON.stringify(entry)).not.toContain('"customer_ref":"globex","line');
  });

  it("the idempotency key follows the resolved identifier, not the words used for it", async () => {
    const { tool } = bind();
    const a = await tool.call(invoice("Globex"), { turn: "k1" });
    const b = await tool.call(invoice("GLOBEX GmbH"), { turn: "k2" });
    expect(a.status === "ok" && b.status === "ok" && a.idempotencyKey === b.idempotencyKey).toBe(true);
  });

  it("no candidate: a semantic error on that path, which spends the repair budget", async () => {
    const { tool, ledger, received } = bind();
    const first = await tool.call(invoice("Initech"), { turn: "t2" });
    expect(first).toMatchObject({ status: "validation_failed", failure: "semantic", repairsLeft: 1 });
    expect(first.status === "validation_failed" && first.errors).toEqual([
      {
        path: "/customer_ref",
        rule: "reference_not_found",
        message: expect.stringMatching(/^no customer matches "Initech"; send the customer's name or email exactly as the user gave it/),
      },
    ]);
    const second = await tool.call(invoice("Initech Corp"), { turn: "t2" });
    expect(second).toMatchObject({ status: "arguments_rejected", failure: "semantic" });
    expect(received).toEqual([]);
    expect(ledger.chains()[0]).toMatchObject({ verdict: "rejected", repairs: 1 });
  });

  it("several candidates: a question with the real candidates; the offered pick proceeds", async () => {
    const { tool, ledger, received } = bind();
    const question = await tool.call(invoice("Acme"), { turn: "t3" });
    expect(question).toEqual({
      status: "ambiguous_reference",
      tool: "create_invoice",
      field: "/customer_ref",
      candidates: [
        { id: "cus_00181", label: "Acme BV (Rotterdam)" },
        { id: "cus_00922", label: "Acme Holding BV (Antwerp)" },
      ],
      detail: expect.stringMatching(
        /^2 customer records match "Acme"\. Call create_invoice again with the complete argument object and \/customer_ref set to exactly one candidate's id/,
      ),
      attempts: 1,
    });
    expect(received).toEqual([]);
    const answer = await tool.call(invoice("cus_00922"), { turn: "t3" });
    expect(answer.status).toBe("ok");
    expect(received).toEqual([expect.objectContaining({ customer_id: "cus_00922" })]);
    const [entry] = ledger.chains();
    expect(entry).toMatchObject({ verdict: "ok", repairs: 0 });
    expect(entry?.attempts[0]?.question).toEqual({
      field: "/customer_ref",
      target: "customer_id",
      candidates: (question as { candidates: unknown }).candidates,
    });
  });

  it("an identifier nobody offered is rejected on the follow-up", async () => {
    const { tool, ledger, received } = bind();
    await tool.call(invoice("Acme"), { turn: "t4" });
    const made_up = await tool.call(invoice("cus_00400"), { turn: "t4" }); // real, but not offered
    expect(made_up).toMatchObject({ status: "validation_failed", failure: "semantic" });
    expect(made_up.status === "validation_failed" && made_up.errors[0]).toMatchObject({
      path: "/customer_ref",
      rule: "reference_not_offered",
      message: expect.stringContaining('send exactly one of their ids: "cus_00181" ("Acme BV (Rotterdam)"), "cus_00922" ("Acme Holding BV (Antwerp)")'),
    });
    const again = await tool.call(invoice("cus_99999"), { turn: "t4" });
    expect(again.status).toBe("arguments_rejected");
    expect(received).toEqual([]);
    expect(ledger.chains()[0]).toMatchObject({ verdict: "rejected" });
  });

  it("a question spends no repair budget: a question, then one failure, still leaves a repair", async () => {
    const { tool } = bind();
    await tool.call(invoice("Acme"), { turn: "t5" });
    const broken = await tool.call(JSON.stringify({ ...validInvoice, customer_ref: "cus_00181", amount: "lots" }), { turn: "t5" });
    expect(broken).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
    const fixed = await tool.call(invoice("cus_00181"), { turn: "t5" });
    expect(fixed.status).toBe("ok");
  });

  it("a resolver that throws is a dependency failure: thrown, recorded, not an argument error", async () => {
    const cause = new Error("CRM unavailable");
    const { tool, ledger, received } = bind(() => {
      throw cause;
    });
    const error = await tool.call(invoice("Acme"), { turn: "t6" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReferenceResolverError);
    expect(error).toMatchObject({ tool: "create_invoice", path: "/customer_ref", kind: "customer", cause });
    expect(received).toEqual([]);
    expect(ledger.chains()[0]).toMatchObject({ verdict: "error" });
  });

  it("a resolver that does not answer in time fails the same way", async () => {
    const { tool } = bind(() => new Promise<never>(() => undefined), { resolverTimeoutMs: 30 });
    await expect(tool.call(invoice("Acme"), { turn: "t7" })).rejects.toThrow(
      /customer resolver of create_invoice failed at \/customer_ref: no answer within 30 ms/,
    );
  });

  it("aborts a slow resolver's signal when its time runs out, also when the signal is read late", async () => {
    const signals: Record<string, AbortSignal> = {};
    const contexts: { tool: string; path: string }[] = [];
    const { tool } = bind(
      (text, context) => {
        contexts.push({ tool: context.tool, path: context.path });
        // "Acme" reads its signal at once; "Globex" only after its time has run out.
        if (text === "Acme") signals[text] = context.signal as AbortSignal;
        return new Promise<never>(() => setTimeout(() => (signals[`${text}, late`] = context.signal as AbortSignal), 60));
      },
      { resolverTimeoutMs: 20 },
    );
    await expect(tool.call(invoice("Acme"), { turn: "t7b" })).rejects.toThrow(/no answer within 20 ms/);
    await expect(tool.call(invoice("Globex"), { turn: "t7c" })).rejects.toThrow(/no answer within 20 ms/);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(contexts).toEqual([
      { tool: "create_invoice", path: "/customer_ref" },
      { tool: "create_invoice", path: "/customer_ref" },
    ]);
    expect(Object.keys(signals).sort()).toEqual(["Acme", "Acme, late", "Globex, late"]);
    for (const signal of Object.values(signals)) expect(signal.aborted && (signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("passes the caller's signal on to a resolver that reads it", async () => {
    const caller = new AbortController();
    let seen: AbortSignal | undefined;
    const bound = bind((_text, context) => {
      seen = context.signal;
      return CUSTOMERS.slice(0, 1);
    });
    expect((await bound.tool.call(invoice("Acme"), { turn: "t7c", signal: caller.signal })).status).toBe("ok");
    expect(seen?.aborted).toBe(false);
    caller.abort(new Error("user left"));
    expect(seen?.aborted).toBe(true);
  });

  it("a resolver that answers nonsense fails the same way", async () => {
    const { tool } = bind(() => [{ id: 7 }] as unknown as Candidate[]);
    await expect(tool.call(invoice("Acme"), { turn: "t8" })).rejects.toBeInstanceOf(ReferenceResolverError);
  });

  it("refuses to bind without a resolver for every kind", () => {
    expect(() => defineTool(spec).implement(() => "x", { resolvers: {} } as never)).toThrow(/needs a resolver for reference kind "customer"/);
  });

  it("resolves every reference in an array, each to its own identifier", async () => {
    const products: Resolver = (text) => [{ id: `prd_${text.toLowerCase()}`, label: text }];
    const lineSchema = structuredClone(invoiceSchema) as unknown as { properties: { line_items: { items: { properties: Record<string, unknown> } } } };
    const arraySpec: ToolSpec = {
      ...invoiceSpec(),
      validate: compile(lineSchema),
      references: { "/line_items/*/sku": { kind: "product", target: "product_id" } },
    };
    const received: unknown[] = [];
    const tool = defineTool<unknown, unknown, "product">(arraySpec).implement((args) => void received.push(structuredClone(args)), {
      ledger: new MemorySink(),
      resolvers: { product: products },
    });
    const outcome = await tool.call(
      JSON.stringify({
        ...validInvoice,
        line_items: [
          { sku: "Widget", quantity: 1, unit_price: 2 },
          { sku: "Gadget", quantity: 3, unit_price: 4 },
        ],
      }),
      { turn: "t9" },
    );
    expect(outcome.status).toBe("ok");
    expect((received[0] as { line_items: unknown }).line_items).toEqual([
      { product_id: "prd_widget", quantity: 1, unit_price: 2 },
      { product_id: "prd_gadget", quantity: 3, unit_price: 4 },
    ]);
  });

  // The process's store holds 10,000 turns that asked a question or were refused (chain-store.ts),
  // and drops the oldest past that: such a turn's chain still reaches the ledger, as "ambiguous"
  // when its last attempt was the question, else as "abandoned" (the guard reads the question
  // only of a turn that has offers).
  it("a turn dropped while its question waits is recorded as ambiguous; one that failed after its question, as abandoned", async () => {
    const { tool, ledger } = bind();
    expect((await tool.call(invoice("Acme"), { turn: "asked" })).status).toBe("ambiguous_reference");
    await tool.call(invoice("Acme"), { turn: "failed after" });
    expect((await tool.call(JSON.stringify({ ...validInvoice, amount: "lots" }), { turn: "failed after" })).status).toBe("validation_failed");
    for (let index = 0; index < 10_000; index++) tool.check(invoice("Acme"), { turn: `later ${index}` });
    const dropped = ledger.chains().filter((entry) => entry.turn === "asked" || entry.turn === "failed after");
    expect(dropped.map((entry) => [entry.turn, entry.verdict, entry.attempts.length])).toEqual([
      ["asked", "ambiguous", 1],
      ["failed after", "abandoned", 2],
    ]);
  });
});
