// Issue 27, finding 4: the memory idempotency store forgot its oldest intents after 100,000 and
// let them run twice. Now it drops a record only once it has expired; full of live records, it
// refuses a new key (the call does not run) and counts the refusal. Never a silent second run.
import { describe, expect, it } from "vitest";
import { IdempotencyGate } from "../../templates/runtime/compose/idempotency-gate.ts";
import { IdempotencyStoreFullError, MemoryIdempotencyStore } from "../../templates/runtime/compose/idempotency-store.ts";
import { defineTool, isDependencyFailure, MemorySink } from "../../templates/runtime/index.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

describe("the memory idempotency store never forgets a live intent", () => {
  it("past the default 100,000 intents, the first one still replays and a new key is refused", async () => {
    const store = new MemoryIdempotencyStore();
    const gate = new IdempotencyGate(store);
    let runs = 0;
    const execute = () => ++runs;
    for (let i = 0; i < 100_000; i++) await gate.run("pay", `intent-${i}`, `fp-${i}`, execute);
    expect(runs).toBe(100_000);
    const refused = await gate.run("pay", "intent-new", "fp-new", execute).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IdempotencyStoreFullError);
    expect((refused as Error).message).toContain("openSqliteIdempotencyStore");
    // The oldest intent is remembered: the same call replays instead of running a second time.
    expect(await gate.run("pay", "intent-0", "fp-0", execute)).toEqual({ kind: "replayed", result: 1 });
    expect(runs).toBe(100_000);
    expect(store.stats()).toEqual({ entries: 100_000, expired: 0, refused: 1 });
  });

  it("drops records once they have expired, and only then", async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore({ maxEntries: 2, ttlMs: 1_000, now: () => now });
    const gate = new IdempotencyGate(store);
    await gate.run("t", "a", "fa", () => "A");
    now = 500;
    await gate.run("t", "b", "fb", () => "B");
    await expect(gate.run("t", "c", "fc", () => "C")).rejects.toBeInstanceOf(IdempotencyStoreFullError);
    now = 1_200; // "a" has expired, "b" has not
    expect(await gate.run("t", "c", "fc", () => "C")).toEqual({ kind: "ran", result: "C" });
    expect(await gate.run("t", "b", "fb", () => "B again")).toEqual({ kind: "replayed", result: "B" });
    expect(store.stats()).toEqual({ entries: 2, expired: 1, refused: 1 });
  });

  it("in the guard: a call refused for want of room does not run, and says why", async () => {
    const runs: number[] = [];
    const ledger = new MemorySink();
    const tool = defineTool<typeof validInvoice>(invoiceSpec()).implement(
      (args) => {
        runs.push(args.amount);
        return args.amount;
      },
      { ledger, idempotency: { store: new MemoryIdempotencyStore({ maxEntries: 1 }) } },
    );
    const first = JSON.stringify({ ...validInvoice, amount: 1 });
    expect(await tool.call(first, { turn: "1" })).toMatchObject({ status: "ok", result: 1 });
    const error = await tool.call(JSON.stringify({ ...validInvoice, amount: 2 }), { turn: "2" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdempotencyStoreFullError);
    expect(isDependencyFailure(error)).toBe(true);
    expect(await tool.call(first, { turn: "3" })).toMatchObject({ status: "ok", result: 1, replayed: true });
    expect(runs).toEqual([1]);
    expect(ledger.entries.find((entry) => entry.turn === "2")?.verdict).toBe("error");
  });
});
