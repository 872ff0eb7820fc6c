// The brief's tests, in both usage shapes, plus the chain rules around them.
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { entryArguments } from "../../templates/runtime/ledger/read.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";
import { assertBudgetBounded, assertRepairedCallOnly, assertTruncationBudget, type MakeTool, spyImplementation } from "./scenarios.ts";

const make: MakeTool = (implementation, ledger) => defineTool<typeof validInvoice>(invoiceSpec()).implement(implementation, { ledger });

describe.each(["framework", "callback"] as const)("the brief's tests, %s shape", (shape) => {
  it("lets only the repaired call reach the tool, with one repair and no coercion", () => assertRepairedCallOnly(make, shape));
  it("asks a model that is wrong forever exactly twice, then refuses", () => assertBudgetBounded(make, shape));
  it("grants a second repair only when the first failure was truncation", () => assertTruncationBudget(make, shape));
});

describe("repair chains", () => {
  it("closes a chain on success, so a later call in the same turn starts fresh", async () => {
    const ledger = new MemorySink();
    const tool = make(spyImplementation().implementation, ledger);
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    expect((await tool.call(bad, { turn: "t" })).status).toBe("validation_failed");
    expect((await tool.call(JSON.stringify(validInvoice), { turn: "t" })).status).toBe("ok");
    const fresh = await tool.call(bad, { turn: "t" });
    expect(fresh).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
    // The closed chain is repaired; the later call opened a chain of its own.
    expect(ledger.chains().map((entry) => entry.verdict)).toEqual(["repaired", "open"]);
    expect(new Set(ledger.chains().map((entry) => entry.chain)).size).toBe(2);
  });

  it("writes a failed attempt at once, so a crash before the repair loses nothing", async () => {
    const ledger = new MemorySink();
    const tool = make(spyImplementation().implementation, ledger);
    await tool.call(JSON.stringify({ ...validInvoice, currency: "euro" }), { turn: "t" });
    expect(ledger.entries.map((entry) => [entry.verdict, entry.attempts.length, entry.attempts[0]?.errors[0]?.path])).toEqual([["open", 1, "/currency"]]);
    await tool.call(JSON.stringify(validInvoice), { turn: "t" });
    const [open, repaired] = ledger.entries;
    expect(repaired).toMatchObject({ chain: open?.chain, verdict: "repaired", repairs: 1 });
    expect(ledger.chains()).toEqual([repaired]);
  });

  it("keeps each open entry as it was written, though the sink reads it after the chain went on", async () => {
    const ledger = new MemorySink();
    const tool = make(spyImplementation().implementation, ledger);
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    await tool.call(bad, { turn: "t" });
    await tool.call(bad, { turn: "t" });
    // Nothing was read until now: the first entry is serialised after the chain has two attempts.
    expect(ledger.entries.map((entry) => [entry.verdict, entry.attempts.length])).toEqual([
      ["open", 1],
      ["rejected", 2],
    ]);
    const [open, rejected] = ledger.entries;
    expect(open?.chain).toMatch(/^[0-9a-f-]{36}$/);
    expect(rejected?.chain).toBe(open?.chain);
  });

  it("records a chain the model never came back to as abandoned, and starts that turn afresh", async () => {
    vi.useFakeTimers();
    try {
      const ledger = new MemorySink();
      const tool = make(spyImplementation().implementation, ledger);
      const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
      await tool.call(bad, { turn: "t" });
      vi.advanceTimersByTime(16 * 60_000);
      expect(await tool.call(bad, { turn: "t" })).toMatchObject({ status: "validation_failed", attempts: 1 });
      expect(ledger.chains().map((entry) => [entry.verdict, entry.attempts.length])).toEqual([
        ["abandoned", 1],
        ["open", 1],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps turns and tools apart", async () => {
    const tool = make(spyImplementation().implementation, new MemorySink());
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    await tool.call(bad, { turn: "a" });
    await tool.call(bad, { turn: "a" });
    expect((await tool.call(bad, { turn: "a" })).status).toBe("arguments_rejected");
    expect((await tool.call(JSON.stringify(validInvoice), { turn: "b" })).status).toBe("ok");
    const other = make(spyImplementation().implementation, new MemorySink());
    expect((await other.call(JSON.stringify(validInvoice), { turn: "a" })).status).toBe("ok");
  });

  it("settles a failed call without waiting on anything (no timer, no I/O, no sink)", async () => {
    const tool = make(() => "never", new MemorySink());
    let settled = false;
    const pending = tool.call('{"amount":', { turn: "t" }).then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
    await pending;
  });

  it("tells the conversation to ask the user once the budget is spent", async () => {
    const tool = make(() => "x", new MemorySink());
    const bad = JSON.stringify({ currency: "EUR" });
    await tool.call(bad, { turn: "t" });
    const refused = await tool.call(bad, { turn: "t" });
    expect(refused.status).toBe("arguments_rejected");
    if (refused.status !== "arguments_rejected") return;
    expect(refused.detail).toMatch(/ask the user/i);
    expect(refused.errors.map((error) => error.path)).toEqual(["/amount", "/customer_ref", "/line_items"]);
  });

  it("propagates what the implementation throws, unchanged, and records it", async () => {
    const ledger = new MemorySink();
    const boom = new Error("backend down");
    const tool = make(() => {
      throw boom;
    }, ledger);
    await expect(tool.call(JSON.stringify(validInvoice), { turn: "t" })).rejects.toBe(boom);
    const asyncTool = make(() => Promise.reject(boom), ledger);
    await expect(asyncTool.call(JSON.stringify(validInvoice), { turn: "t" })).rejects.toBe(boom);
    expect(ledger.entries.map((entry) => entry.verdict)).toEqual(["error", "error"]);
  });

  it("keeps the ledger and the idempotency key out of the implementation's reach", async () => {
    const ledger = new MemorySink();
    let keyInside = "";
    const tool = make((args, context) => {
      (args as { amount: number }).amount = 1;
      args.line_items.push({ sku: "FREE", quantity: 1, unit_price: 0 });
      keyInside = context.idempotencyKey;
      return "done";
    }, ledger);
    const outcome = await tool.call(JSON.stringify(validInvoice), { turn: "t" });
    const again = await make(() => "done", new MemorySink()).call(JSON.stringify(validInvoice), { turn: "u" });
    expect(entryArguments(ledger.last()!)).toEqual(validInvoice);
    expect(outcome.status === "ok" && outcome.idempotencyKey).toBe(keyInside);
    expect(again.status === "ok" && again.idempotencyKey).toBe(keyInside);
  });

  it("mints the same key for the same intent, whatever the key order or coercion, and a new one for a repaired payload", async () => {
    const tool = make(() => "done", new MemorySink());
    const key = async (raw: unknown, turn: string): Promise<string> => {
      const outcome = await tool.call(raw, { turn });
      if (outcome.status !== "ok") throw new Error(outcome.status);
      return outcome.idempotencyKey;
    };
    const reordered = Object.fromEntries(Object.entries(validInvoice).reverse());
    expect(await key(reordered, "1")).toBe(await key(JSON.stringify(validInvoice), "2"));
    expect(await key(JSON.stringify({ ...validInvoice, amount: "1299" }), "3")).toBe(await key(validInvoice, "4"));
    expect(await key({ ...validInvoice, amount: 1300 }, "5")).not.toBe(await key(validInvoice, "6"));
  });

  it("accepts a parsed value and never lets the caller's object change what is recorded", async () => {
    const ledger = new MemorySink();
    const spy = spyImplementation();
    const tool = make(spy.implementation, ledger);
    const parsed = structuredClone({ ...validInvoice, amount: "1299.5" });
    const outcome = await tool.call(parsed, { turn: "t" });
    expect(outcome.status).toBe("ok");
    expect(parsed.amount).toBe("1299.5");
    expect(spy.invocations).toEqual([{ ...validInvoice, amount: 1299.5 }]);
    expect(ledger.last()?.attempts[0]?.coercions).toEqual([{ path: "/amount", from: "1299.5", to: 1299.5, rule: "string->number" }]);
  });
});
