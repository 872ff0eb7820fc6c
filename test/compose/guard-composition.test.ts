// Idempotency and write ordering inside the guarded call: the key is minted from the validated,
// resolved arguments; an identical call is answered from the store without running the tool;
// the same intent with other arguments is a loud conflict (an outcome, counted, in the ledger);
// concurrent duplicates run once; writes sharing a serialisation key run in the order they
// passed validation, and a failing write blocks nobody.
import { describe, expect, it } from "vitest";
import { defineTool, isDependencyFailure, MemoryIdempotencyStore, MemorySink, type Outcome, WriteQueueTimeoutError } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

type Invoice = typeof validInvoice;
const text = (value: object): string => JSON.stringify(value);

function guardedInvoices(options: { keyOf?: (args: Invoice) => string } = {}) {
  const runs: { key: string; amount: number }[] = [];
  const ledger = new MemorySink();
  const store = new MemoryIdempotencyStore();
  const tool = defineTool<Invoice>(invoiceSpec()).implement(
    async (args, ctx) => {
      runs.push({ key: ctx.idempotencyKey, amount: args.amount });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { invoice: `inv_${runs.length}` };
    },
    { ledger, idempotency: { store, ...(options.keyOf ? { keyOf: options.keyOf } : {}) } },
  );
  return { tool, runs, ledger };
}

describe("idempotency store in the guard", () => {
  it("answers an identical call from the store, with the same key, without running the tool", async () => {
    const { tool, runs, ledger } = guardedInvoices();
    const first = await tool.call(text(validInvoice), { turn: "t1" });
    const second = await tool.call(text(validInvoice), { turn: "t2" });
    expect(runs).toHaveLength(1);
    expect(first).toMatchObject({ status: "ok", result: { invoice: "inv_1" } });
    expect(second).toMatchObject({ status: "ok", result: { invoice: "inv_1" }, replayed: true });
    if (first.status !== "ok" || second.status !== "ok") throw new Error("unreachable");
    expect(second.idempotencyKey).toBe(first.idempotencyKey);
    expect(runs[0]?.key).toBe(first.idempotencyKey);
    expect(ledger.entries.map((entry) => entry.verdict)).toEqual(["ok", "replayed"]);
  });

  it("mints the key after validation: a repaired call is keyed by what passed", async () => {
    const { tool, runs } = guardedInvoices();
    const repaired = await tool.call(text({ ...validInvoice, amount: "1,299.00" }), { turn: "t", repair: () => text(validInvoice) });
    const clean = await tool.call(text(validInvoice), { turn: "u" });
    expect(runs).toHaveLength(1);
    expect(clean).toMatchObject({ status: "ok", replayed: true });
    if (repaired.status !== "ok" || clean.status !== "ok") throw new Error("unreachable");
    expect(clean.idempotencyKey).toBe(repaired.idempotencyKey);
  });

  it("refuses the same intent with other arguments as a conflict, counted in the ledger, and runs nothing", async () => {
    const { tool, runs, ledger } = guardedInvoices({ keyOf: (args) => `${args.customer_ref}:${args.currency}` });
    await tool.call(text(validInvoice), { turn: "t1" });
    const conflict: Outcome<unknown> = await tool.call(text({ ...validInvoice, amount: 5 }), { turn: "t2" });
    expect(conflict).toMatchObject({ status: "idempotency_conflict", tool: "create_invoice", idempotencyKey: "Acme BV:EUR" });
    expect(runs.map((run) => run.key)).toEqual(["Acme BV:EUR"]);
    expect(ledger.entries.at(-1)).toMatchObject({ verdict: "conflict", idempotencyKey: "Acme BV:EUR" });
  });

  it("runs concurrent duplicates once", async () => {
    const { tool, runs } = guardedInvoices();
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map((n) => tool.call(text(validInvoice), { turn: `c${n}` })));
    expect(runs).toHaveLength(1);
    expect(outcomes.every((outcome) => outcome.status === "ok")).toBe(true);
    expect(outcomes.filter((outcome) => outcome.status === "ok" && outcome.replayed)).toHaveLength(4);
  });

  it("lets a retry run again after the implementation failed", async () => {
    let calls = 0;
    const tool = defineTool(invoiceSpec()).implement(
      () => {
        if (++calls === 1) throw new Error("timeout talking to billing");
        return "created";
      },
      { ledger: new MemorySink(), idempotency: { store: new MemoryIdempotencyStore() } },
    );
    await expect(tool.call(text(validInvoice), { turn: "r" })).rejects.toThrow("timeout talking to billing");
    expect(await tool.call(text(validInvoice), { turn: "r" })).toMatchObject({ status: "ok", result: "created" });
    expect(calls).toBe(2);
  });
});

describe("write ordering", () => {
  function orderedInvoices(failFor?: number) {
    const order: string[] = [];
    const tool = defineTool<Invoice>(invoiceSpec()).implement(
      async (args) => {
        order.push(`start ${args.amount}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push(`end ${args.amount}`);
        if (args.amount === failFor) throw new Error("write failed");
        return args.amount;
      },
      { ledger: new MemorySink(), serializeBy: (args) => args.customer_ref },
    );
    return { tool, order };
  }

  it("orders a repaired write by the moment it passed validation, not its first emission", async () => {
    const { tool, order } = orderedInvoices();
    // Write 1 is emitted first but invalid; write 2 is valid at once; write 1's repair comes later.
    const first = await tool.call(text({ ...validInvoice, amount: "1,299.00" }), { turn: "w1" });
    expect(first.status).toBe("validation_failed");
    const clean = tool.call(text({ ...validInvoice, amount: 2 }), { turn: "w2" });
    const repaired = tool.call(text({ ...validInvoice, amount: 1 }), { turn: "w1" });
    const other = tool.call(text({ ...validInvoice, amount: 3, customer_ref: "Other BV" }), { turn: "w3" });
    await Promise.all([clean, repaired, other]);
    expect(order.filter((line) => !line.endsWith(" 3"))).toEqual(["start 2", "end 2", "start 1", "end 1"]);
    // Another customer's write does not wait for Acme's.
    expect(order.indexOf("start 3")).toBeLessThan(order.indexOf("end 2"));
  });

  it("does not let a failing write block the queue", async () => {
    const { tool, order } = orderedInvoices(7);
    const failing = tool.call(text({ ...validInvoice, amount: 7 }), { turn: "f1" });
    const next = tool.call(text({ ...validInvoice, amount: 8 }), { turn: "f2" });
    await expect(failing).rejects.toThrow("write failed");
    expect(await next).toMatchObject({ status: "ok", result: 8 });
    expect(order).toEqual(["start 7", "end 7", "start 8", "end 8"]);
  });
});

describe("write ordering by a resolved reference", () => {
  const spec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
  type Resolved = Omit<Invoice, "customer_ref"> & { customer_id: string };

  /** A CRM whose searches take as long as `delays` says for the text, and fail for "down". */
  function orderedByCustomer(delays: Record<string, number>) {
    const order: string[] = [];
    const keys: string[] = [];
    const tool = defineTool<Invoice, Resolved, "customer">(spec).implement(
      async (args) => {
        order.push(`start ${args.amount}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push(`end ${args.amount}`);
        return args.amount;
      },
      {
        ledger: new MemorySink(),
        resolvers: {
          customer: async (text) => {
            await new Promise((resolve) => setTimeout(resolve, delays[text] ?? 0));
            if (text === "down") throw new Error("CRM unreachable");
            // "Acme" alone names two customers: the call ends in a question.
            if (text === "Acme")
              return [
                { id: "cus_1", label: "Acme BV" },
                { id: "cus_9", label: "Acme Holding" },
              ];
            return /acme/i.test(text) ? [{ id: "cus_1", label: "Acme BV" }] : [{ id: "cus_2", label: "Globex" }];
          },
        },
        // The resolved identifier: "Acme BV" and "ACME" are one customer.
        serializeBy: (args) => {
          keys.push(args.customer_id);
          return args.customer_id;
        },
      },
    );
    return { tool, order, keys };
  }
  const call = (tool: ReturnType<typeof orderedByCustomer>["tool"], customer_ref: string, amount: number) =>
    tool.call(text({ ...validInvoice, customer_ref, amount }), { turn: `w${amount}` });

  it("queues two names of one customer as one key; another customer's write runs beside them", async () => {
    const { tool, order, keys } = orderedByCustomer({ "Acme BV": 1, ACME: 1, Globex: 1 });
    const first = call(tool, "Acme BV", 1);
    const second = call(tool, "ACME", 2);
    const other = call(tool, "Globex", 3);
    expect((await Promise.all([first, second, other])).map((outcome) => outcome.status)).toEqual(["ok", "ok", "ok"]);
    expect(new Set(keys)).toEqual(new Set(["cus_1", "cus_2"]));
    // One customer's writes one at a time, never overlapping.
    const acme = order.filter((line) => !line.endsWith(" 3"));
    expect([acme[0]?.slice(0, 5), acme[1]?.slice(0, 3), acme[2]?.slice(0, 5), acme[3]?.slice(0, 3)]).toEqual(["start", "end", "start", "end"]);
    expect(acme[0]?.slice(6)).toBe(acme[1]?.slice(4));
    expect(order.indexOf("start 3")).toBeLessThan(Math.max(order.indexOf("end 1"), order.indexOf("end 2")));
  });

  it("a call whose resolver fails, or that ends in a question, holds up nobody", async () => {
    const { tool, order } = orderedByCustomer({ down: 20, Acme: 20 });
    const failing = call(tool, "down", 1);
    const question = call(tool, "Acme", 2);
    const next = call(tool, "Acme BV", 3);
    await expect(failing).rejects.toThrow("CRM unreachable");
    expect(await question).toMatchObject({ status: "ambiguous_reference" });
    expect(await next).toMatchObject({ status: "ok", result: 3 });
    expect(order).toEqual(["start 3", "end 3"]);
  });
});

// Issue 27, finding 3: keys are independent, and no wait is unbounded.
describe("write ordering: independent keys, bounded waits", () => {
  const spec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
  type Resolved = Omit<Invoice, "customer_ref"> & { customer_id: string };

  it("a slow resolver for one key holds back no write of another key", async () => {
    const log: string[] = [];
    let releaseAcme!: () => void;
    const acmeAnswered = new Promise<void>((resolve) => (releaseAcme = resolve));
    const tool = defineTool<Invoice, Resolved, "customer">(spec).implement(
      (args) => {
        log.push(`write ${args.customer_id}`);
        // Globex's write is what lets Acme's resolver answer: with the keys tied, it would
        // wait for that resolver, which would wait for it, until the resolver's timeout.
        if (args.customer_id === "cus_2") releaseAcme();
        return args.customer_id;
      },
      {
        ledger: new MemorySink(),
        resolverTimeoutMs: 5_000,
        resolvers: {
          customer: async (text) => {
            if (text === "Acme BV") await acmeAnswered;
            log.push(`resolved ${text}`);
            return /acme/i.test(text) ? [{ id: "cus_1", label: "Acme BV" }] : [{ id: "cus_2", label: "Globex" }];
          },
        },
        serializeBy: (args) => args.customer_id,
      },
    );
    const acme = tool.call(text({ ...validInvoice, customer_ref: "Acme BV", amount: 1 }), { turn: "a" });
    const globex = tool.call(text({ ...validInvoice, customer_ref: "Globex", amount: 2 }), { turn: "g" });
    expect(await globex).toMatchObject({ status: "ok", result: "cus_2" });
    expect(await acme).toMatchObject({ status: "ok", result: "cus_1" });
    expect(log).toEqual(["resolved Globex", "write cus_2", "resolved Acme BV", "write cus_1"]);
  });

  it("a call validated earlier whose key is known late goes before the later calls waiting for that key", async () => {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const tool = defineTool<Invoice, Resolved, "customer">(spec).implement(
      async (args) => {
        log.push(`start ${args.amount}`);
        if (args.amount === 2) {
          answerFirst(); // the first call's resolver answers while this write runs
          await new Promise<void>((resolve) => gates.set("2", resolve));
        }
        log.push(`end ${args.amount}`);
        return args.amount;
      },
      {
        ledger: new MemorySink(),
        resolvers: {
          customer: async (text) => {
            if (text === "Acme BV") await firstAnswered;
            return [{ id: "cus_1", label: "Acme BV" }];
          },
        },
        serializeBy: (args) => args.customer_id,
      },
    );
    const first = tool.call(text({ ...validInvoice, customer_ref: "Acme BV", amount: 1 }), { turn: "1" });
    const second = tool.call(text({ ...validInvoice, customer_ref: "ACME", amount: 2 }), { turn: "2" });
    const third = tool.call(text({ ...validInvoice, customer_ref: "acme", amount: 3 }), { turn: "3" });
    await firstAnswered;
    // Let the first call's resolution reach the queue, then finish the running write.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    gates.get("2")?.();
    await Promise.all([first, second, third]);
    expect(log).toEqual(["start 2", "end 2", "start 1", "end 1", "start 3", "end 3"]);
  });

  it("a write that never finishes holds its key only serializeTimeoutMs; a call that waited longer is refused, not run", async () => {
    const ran: number[] = [];
    const ledger = new MemorySink();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    const tool = defineTool<Invoice>(invoiceSpec()).implement(
      (args) => {
        ran.push(args.amount);
        // The first two writes never finish.
        return args.amount <= 2 ? new Promise<number>(() => undefined) : args.amount;
      },
      { ledger, serializeBy: () => "one-account", serializeTimeoutMs: 100 },
    );
    void tool.call(text({ ...validInvoice, amount: 1 }), { turn: "1" });
    void tool.call(text({ ...validInvoice, amount: 2 }), { turn: "2" });
    const third = tool.call(text({ ...validInvoice, amount: 3 }), { turn: "3" });
    const error = await third.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    process.off("warning", onWarning);
    expect(error).toBeInstanceOf(WriteQueueTimeoutError);
    expect((error as Error).message).toContain("serializeTimeoutMs");
    expect(isDependencyFailure(error)).toBe(true);
    // The first write held the key past the bound, so the second started; the third waited
    // behind the second longer than the bound and never ran.
    expect(ran).toEqual([1, 2]);
    expect(warnings.some((message) => message.includes("held its serializeBy key"))).toBe(true);
    expect(ledger.entries.find((entry) => entry.turn === "3")?.verdict).toBe("error");
    // The key is usable again once the stuck writes no longer hold it.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await tool.call(text({ ...validInvoice, amount: 4 }), { turn: "4" })).toMatchObject({ status: "ok", result: 4 });
  });

  it("serializeTimeoutMs must be a positive number", () => {
    expect(() => defineTool<Invoice>(invoiceSpec()).implement(() => 1, { serializeBy: () => "k", serializeTimeoutMs: 0 })).toThrow(/serializeTimeoutMs/);
  });
});
