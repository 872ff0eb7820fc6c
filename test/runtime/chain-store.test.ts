// The chain store is bounded: by count (least recently used first) and by age for open chains;
// turns that must stay refused or restricted are held apart, beyond other turns' reach and time's.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChainStore, TurnState, type TurnOwner } from "../../templates/runtime/call/chain-store.ts";

function recorder(): TurnOwner & { dropped: (turn: TurnState) => void; names: string[] } {
  const names: string[] = [];
  return { names, dropped: (turn) => names.push(turn.turn) };
}

function turn(name: string, owner: TurnOwner): TurnState {
  return new TurnState(name, name, owner);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ChainStore", () => {
  it("evicts the least recently used open chain past its size and reports it", () => {
    const owner = recorder();
    const store = new ChainStore({ maxChains: 2, maxHeld: 2, ttlMs: 60_000 });
    const now = Date.now();
    store.put(turn("a", owner), now);
    store.put(turn("b", owner), now);
    store.put(store.get("a") as TurnState, now);
    store.put(turn("c", owner), now);
    expect(owner.names).toEqual(["b"]);
    expect(store.size).toBe(2);
    expect(store.get("a")?.turn).toBe("a");
  });

  it("forgets open chains after their time to live", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const store = new ChainStore({ maxChains: 10, maxHeld: 10, ttlMs: 1000 });
    store.put(turn("a", owner), Date.now());
    vi.advanceTimersByTime(1001);
    expect(store.get("a")).toBeUndefined();
    expect(owner.names).toEqual(["a"]);
  });

  it("keeps a rejected or offering turn however many open chains come after it, and however long", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const store = new ChainStore({ maxChains: 4, maxHeld: 4, ttlMs: 1000 });
    const rejected = turn("rejected", owner);
    rejected.rejected = true;
    const offering = turn("offering", owner);
    offering.offers = new Map([["/customer_ref", [{ id: "cus_1", label: "Acme" }]]]);
    store.put(rejected);
    store.put(offering);
    for (let index = 0; index < 100; index++) store.put(turn(`other-${index}`, owner));
    vi.advanceTimersByTime(24 * 60 * 60_000);
    expect(store.get("rejected")).toBe(rejected);
    expect(store.get("offering")).toBe(offering);
  });

  it("bounds held turns too, separately", () => {
    const owner = recorder();
    const store = new ChainStore({ maxChains: 4, maxHeld: 2, ttlMs: 1000 });
    for (const name of ["a", "b", "c"]) {
      const state = turn(name, owner);
      state.rejected = true;
      store.put(state);
    }
    expect(store.size).toBe(2);
    expect(store.get("a")).toBeUndefined();
    expect(owner.names).toEqual(["a"]);
  });
});

describe("the process's store", () => {
  it("bounds every bound tool's open chains together, not each tool's apart", async () => {
    const { PROCESS_CHAINS, DEFAULT_CHAIN_LIMITS } = await import("../../templates/runtime/call/chain-store.ts");
    const { defineTool } = await import("../../templates/runtime/call/define-tool.ts");
    const { invoiceSpec, validInvoice } = await import("./invoice-spec.ts");
    const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    const tools = [
      defineTool(invoiceSpec()).implement(() => "a", { ledger }),
      defineTool({ ...invoiceSpec(), name: "other" }).implement(() => "b", { ledger }),
    ];
    const bad = JSON.stringify({ ...validInvoice, currency: "euro" });
    for (const tool of tools) for (let index = 0; index < DEFAULT_CHAIN_LIMITS.maxChains; index++) await tool.call(bad, { turn: `process-${index}` });
    expect(PROCESS_CHAINS.size).toBeLessThanOrEqual(DEFAULT_CHAIN_LIMITS.maxChains);
  });

  it("counts each owner's kept turns, so a guard with none skips the lookup", () => {
    vi.useFakeTimers();
    const owner = recorder();
    const other = recorder();
    const store = new ChainStore({ maxChains: 2, maxHeld: 1, ttlMs: 1000 });
    const [a, b, c] = [turn("a", owner), turn("b", owner), turn("c", other)];
    store.put(a);
    store.put(b);
    store.put(a);
    expect(owner.kept).toBe(2);
    store.delete(a);
    store.delete(a);
    expect(owner.kept).toBe(1);
    expect(store.get("b")).toBe(b);
    // Evicted past the cap (b, the least recently used), then a held turn pushed out by another.
    store.put(a);
    store.put(c);
    expect([owner.kept, other.kept]).toEqual([1, 1]);
    a.rejected = true;
    store.put(a);
    const held = turn("d", other);
    held.rejected = true;
    store.put(held);
    expect([owner.kept, other.kept, store.size]).toEqual([0, 2, 2]);
    // Expired by time.
    vi.advanceTimersByTime(1001);
    expect(store.get("c")).toBeUndefined();
    expect([owner.kept, other.kept]).toEqual([0, 1]);
  });
});
