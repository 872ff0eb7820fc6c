// The chain store is bounded: by count (least recently used first) and by age.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChainStore, type Chain } from "../../templates/runtime/call/chain-store.ts";

function chain(turn: string): Chain {
  return { id: turn, turn, startedAt: 0, attempts: [], maxAttempts: 2, rejected: false, lastFailure: undefined, lastErrors: [], touchedAt: 0, offers: new Map() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ChainStore", () => {
  it("evicts the least recently used chain past its size and reports it", () => {
    const dropped: string[] = [];
    const store = new ChainStore({ maxChains: 2, ttlMs: 60_000, onDrop: (c) => dropped.push(c.turn) });
    const now = Date.now();
    store.put(chain("a"), now);
    store.put(chain("b"), now);
    store.put(store.get("a") as Chain, now);
    store.put(chain("c"), now);
    expect(dropped).toEqual(["b"]);
    expect(store.size).toBe(2);
    expect(store.get("a")?.turn).toBe("a");
  });

  it("forgets chains after their time to live", () => {
    vi.useFakeTimers();
    const dropped: string[] = [];
    const store = new ChainStore({ maxChains: 10, ttlMs: 1000, onDrop: (c) => dropped.push(c.turn) });
    store.put(chain("a"), Date.now());
    vi.advanceTimersByTime(1001);
    expect(store.get("a")).toBeUndefined();
    expect(dropped).toEqual(["a"]);
  });
});
