// The repair budget under concurrency and over time (issue 15, findings 5, 6, 14 and 16; issue 14's
// refused call). Every test here failed on the guard before the turn's state became one object per
// turn in one store per process: parallel calls each got a fresh chain, a late success deleted a
// refusal, questions about array items were free and endless, other turns' load or fifteen minutes
// lifted a turn's offered candidates, and successes in between made failures unlimited.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Candidate, Resolver } from "../../templates/runtime/contract/api.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import type { LedgerEntry, LedgerSink } from "../../templates/runtime/ledger/ledger.ts";
import { compile, invoiceSpec, validInvoice } from "./invoice-spec.ts";

const CUSTOMERS: readonly Candidate[] = [
  { id: "cus_1", label: "Acme BV (Rotterdam)" },
  { id: "cus_2", label: "Acme Holding BV (Antwerp)" },
  { id: "cus_9", label: "Initech (Austin)" },
];

/** A directory that finds customers by name or by id, as many CRMs' search boxes do. */
const directory: Resolver = (text) => CUSTOMERS.filter((customer) => customer.id === text || customer.label.toLowerCase().includes(text.toLowerCase()));
const slowly =
  (resolver: Resolver): Resolver =>
  async (text, context) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return resolver(text, context);
  };

const invoiceWithReference: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
const invoice = (fields: object = {}) => JSON.stringify({ ...validInvoice, ...fields });
const nobody = invoice({ customer_ref: "Nobody Ltd" });
const badCurrency = invoice({ currency: "euro" });
const badAmount = invoice({ amount: "lots" });

let turns = 0;
const freshTurn = (): string => `concurrency-${process.pid}-${++turns}`;

function bind(spec: ToolSpec, resolver: Resolver, ledger: LedgerSink = new MemorySink()) {
  const received: unknown[] = [];
  const tool = defineTool<unknown, Record<string, unknown>, "customer">(spec).implement(
    (args) => {
      received.push(structuredClone(args));
      return "inv_1";
    },
    { ledger, resolvers: { customer: resolver } },
  );
  return { tool, received };
}

const finals = (ledger: MemorySink): LedgerEntry[] => ledger.chains();

afterEach(() => {
  vi.useRealTimers();
});

describe("15.6: parallel calls in one turn", () => {
  it("share one budget: five parallel failures are two failed attempts, then refusals, in one chain", async () => {
    const ledger = new MemorySink();
    const { tool, received } = bind(invoiceWithReference, slowly(directory), ledger);
    const turn = freshTurn();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => tool.call(nobody, { turn })));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([
      "arguments_rejected",
      "arguments_rejected",
      "arguments_rejected",
      "arguments_rejected",
      "validation_failed",
    ]);
    expect((await tool.call(invoice({ customer_ref: "Initech" }), { turn })).status).toBe("arguments_rejected");
    expect(received).toEqual([]);
    expect(finals(ledger).map((entry) => entry.verdict)).toEqual(["rejected"]);
    expect(finals(ledger)[0]?.attempts.filter((attempt) => attempt.failure === "semantic").length).toBeGreaterThanOrEqual(2);
  });

  it("a valid call finishing after the turn was refused neither lifts the refusal nor claims a repair", async () => {
    const ledger = new MemorySink();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const resolver: Resolver = async (text, context) => {
      if (text === "Initech") await gate;
      return directory(text, context);
    };
    const { tool, received } = bind(invoiceWithReference, resolver, ledger);
    const turn = freshTurn();
    expect((await tool.call(badCurrency, { turn })).status).toBe("validation_failed");
    const late = tool.call(invoice({ customer_ref: "Initech" }), { turn });
    expect((await tool.call(badAmount, { turn })).status).toBe("arguments_rejected");
    release();
    expect((await late).status).toBe("ok");
    expect((await tool.call(badCurrency, { turn })).status).toBe("arguments_rejected");
    expect(received).toHaveLength(1);
    expect(finals(ledger).map((entry) => entry.verdict)).not.toContain("repaired");
  });
});

describe("15.5: questions about array references", () => {
  const schema = {
    type: "object",
    properties: { items: { type: "array", items: { type: "object", properties: { customer_ref: { type: "string" } }, required: ["customer_ref"] } } },
    required: ["items"],
  } as const;
  const spec: ToolSpec = {
    name: "bill_many",
    description: "Bills several customers.",
    inputSchema: schema as unknown as ToolSpec["inputSchema"],
    validate: compile(schema),
    coercions: {},
    hints: {},
    references: { "/items/*/customer_ref": { kind: "customer", target: "customer_id" } },
  };

  it("each new index's question counts: a turn cannot ask without end", async () => {
    const ledger = new MemorySink();
    const { tool, received } = bind(spec, directory, ledger);
    const turn = freshTurn();
    const statuses: string[] = [];
    for (let index = 0; index < 40; index++) {
      // Every earlier item answered with an offered id, a new ambiguous one at the end.
      const items = [...Array.from({ length: index }, () => ({ customer_ref: "cus_1" })), { customer_ref: "Acme" }];
      const outcome = await tool.call(JSON.stringify({ items }), { turn });
      statuses.push(outcome.status);
      if (outcome.status === "arguments_rejected") break;
    }
    expect(statuses.at(-1)).toBe("arguments_rejected");
    expect(statuses.filter((status) => status === "ambiguous_reference").length).toBeLessThanOrEqual(6);
    expect(received).toEqual([]);
    const attempts = finals(ledger).reduce((sum, entry) => sum + entry.attempts.length, 0);
    expect(attempts).toBeLessThanOrEqual(12);
  });
});

describe("15.14: a turn's offered candidates and refusal outlive other turns and time", () => {
  const drop: LedgerSink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };

  it("10,000 other failing turns do not let an un-offered id through", async () => {
    const { tool, received } = bind(invoiceWithReference, directory, drop);
    const turn = freshTurn();
    expect((await tool.call(invoice({ customer_ref: "Acme" }), { turn })).status).toBe("ambiguous_reference");
    for (let index = 0; index < 10_050; index++) await tool.call(badCurrency, { turn: `${turn}-other-${index}` });
    const outcome = await tool.call(invoice({ customer_ref: "cus_9" }), { turn });
    expect(outcome.status).toBe("validation_failed");
    expect(received).toEqual([]);
  });

  it("fifteen minutes do not let an un-offered id through, nor lift a refusal", async () => {
    const { tool, received } = bind(invoiceWithReference, directory, drop);
    const asked = freshTurn();
    const refused = freshTurn();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await tool.call(invoice({ customer_ref: "Acme" }), { turn: asked })).status).toBe("ambiguous_reference");
    await tool.call(badCurrency, { turn: refused });
    expect((await tool.call(badCurrency, { turn: refused })).status).toBe("arguments_rejected");
    vi.setSystemTime(Date.now() + 16 * 60_000);
    expect((await tool.call(invoice({ customer_ref: "cus_9" }), { turn: asked })).status).toBe("validation_failed");
    expect((await tool.call(invoice({ customer_ref: "Initech" }), { turn: refused })).status).toBe("arguments_rejected");
    expect(received).toEqual([]);
  });
});

describe("15.16: failures in a turn stay bounded", () => {
  it("successes in between do not make failures unlimited", async () => {
    const { tool } = bind(invoiceWithReference, directory);
    const turn = freshTurn();
    const failures: string[] = [];
    for (let round = 0; round < 10; round++) {
      const outcome = await tool.call(badCurrency, { turn });
      failures.push(outcome.status);
      if (outcome.status === "arguments_rejected") break;
      expect((await tool.call(invoice({ customer_ref: "Initech" }), { turn })).status).toBe("ok");
    }
    expect(failures.at(-1)).toBe("arguments_rejected");
    expect(failures.filter((status) => status === "validation_failed").length).toBeLessThanOrEqual(3);
  });
});

describe("issue 14: the refused call", () => {
  it("is answered with its own errors and recorded in the refused chain", async () => {
    const ledger = new MemorySink();
    const { tool } = bind(invoiceWithReference, directory, ledger);
    const turn = freshTurn();
    await tool.call(badCurrency, { turn });
    await tool.call(badAmount, { turn });
    const third = await tool.call(invoice({ customer_ref: "Initech", memo: 42 }), { turn });
    expect(third.status).toBe("arguments_rejected");
    expect(third.status === "arguments_rejected" && third.errors.map((error) => error.path)).toEqual(["/memo"]);
    const chains = finals(ledger);
    expect(chains).toHaveLength(1);
    expect(chains[0]?.verdict).toBe("rejected");
    expect(chains[0]?.repairs).toBe(1); // the refused call is recorded, but it is not a repair
    expect(chains[0]?.attempts.map((attempt) => attempt.errors.map((error) => error.path))).toEqual([["/currency"], ["/amount"], ["", "/memo"]]);
  });
});
