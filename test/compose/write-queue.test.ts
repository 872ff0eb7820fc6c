// Writes that share a key run one at a time, in the order their tickets were taken; a ticket
// that leaves early (its call failed before writing) lets nobody overtake a write still running.
import { describe, expect, it } from "vitest";
import { WriteQueue } from "../../templates/runtime/compose/write-queue.ts";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("WriteQueue", () => {
  it("runs writes of one key in ticket order, and other keys beside them", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const write = async (key: string, name: string, gate: Promise<void>) => {
      const ticket = queue.enter(key);
      await ticket.ready;
      log.push(`start ${name}`);
      await gate;
      log.push(`end ${name}`);
      ticket.leave();
    };
    const a = deferred();
    const runs = [write("acct-1", "a", a.promise), write("acct-1", "b", Promise.resolve()), write("acct-2", "c", Promise.resolve())];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(["start a", "start c", "end c"]);
    a.resolve();
    await Promise.all(runs);
    expect(log).toEqual(["start a", "start c", "end c", "end a", "start b", "end b"]);
    expect(queue.size).toBe(0);
  });

  it("does not let a later write overtake a running one when a ticket between them leaves early", async () => {
    const queue = new WriteQueue();
    const first = queue.enter("k");
    const second = queue.enter("k");
    const third = queue.enter("k");
    let thirdReady = false;
    void third.ready.then(() => (thirdReady = true));
    second.leave(); // its call failed before writing
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(thirdReady).toBe(false);
    first.leave();
    await third.ready;
    expect(thirdReady).toBe(true);
  });

  it("is not blocked by a write that failed", async () => {
    const queue = new WriteQueue();
    const failing = queue.enter("k");
    const next = queue.enter("k");
    await failing.ready;
    try {
      throw new Error("the write failed");
    } catch {
      failing.leave();
    }
    await next.ready;
    next.leave();
    next.leave(); // idempotent
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.size).toBe(0);
  });
});
