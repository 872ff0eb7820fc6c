// Issue 26, overload: durable calls waiting on the JSONL sink are held as one waiter per target,
// resolved in order, so an open loop past the sink's rate cannot grow the waiters with the calls
// or make each slice scan them all (figure 11 of the bench saw 1 s stalls from that scan).
// Bounded by counts, never by the clock.
import { describe, expect, it } from "vitest";
import { WriteWaiters } from "../../templates/runtime/ledger/sink-waiters.ts";

describe("WriteWaiters", () => {
  it("holds calls waiting for one target as one waiter, and resolves them all when it is reached", async () => {
    const waiters = new WriteWaiters();
    const calls = Array.from({ length: 10_000 }, () => waiters.wait(7));
    expect(waiters.pending).toBe(1);
    waiters.settle(6);
    expect(waiters.pending).toBe(1);
    waiters.settle(7);
    expect(waiters.pending).toBe(0);
    await Promise.all(calls);
  });

  it("resolves exactly the prefix a write reaches, in order, and rejects only what is still waiting", async () => {
    const waiters = new WriteWaiters();
    const settled: number[] = [];
    const calls = Array.from({ length: 5_000 }, (_, index) =>
      waiters.wait(index + 1).then(
        () => settled.push(index + 1),
        () => settled.push(-(index + 1)),
      ),
    );
    expect(waiters.pending).toBe(5_000);
    waiters.settle(3_000);
    await Promise.resolve();
    expect(waiters.pending).toBe(2_000);
    waiters.reject(new Error("disk full"));
    expect(waiters.pending).toBe(0);
    await Promise.all(calls);
    expect(settled.filter((n) => n > 0)).toEqual(Array.from({ length: 3_000 }, (_, index) => index + 1));
    expect(settled.filter((n) => n < 0)).toHaveLength(2_000);
    // A wait after a settle starts a fresh queue.
    const late = waiters.wait(6_000);
    expect(waiters.pending).toBe(1);
    waiters.settle(6_000);
    await late;
  });
});
