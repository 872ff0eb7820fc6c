// An emit worker collects its garbage between items once its heap is large and has grown since
// the last collection (generator/speed/heap.ts), which is what keeps two workers under a few
// hundred megabytes each on Elasticsearch's description. Here the keeper's measure and collector
// are stand-ins, so the thresholds can be crossed on purpose.
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { COLLECT_ABOVE_BYTES, COLLECT_AFTER_GROWTH_BYTES, HeapKeeper } from "../../generator/speed/heap.ts";
import { serveItems } from "../../generator/speed/worker-pool.ts";

const MB = 1024 * 1024;

/** A keeper over a heap whose size the test sets, and the sizes it collected at. */
function plantedHeap(options: { aboveBytes?: number; afterGrowthBytes?: number } = {}) {
  const heap = { used: 0, collectedAt: [] as number[], live: undefined as number | undefined };
  const keeper = new HeapKeeper({
    ...options,
    used: () => heap.used,
    collect: () => {
      heap.collectedAt.push(heap.used);
      heap.used = heap.live ?? Math.round(heap.used / 4); // a collection frees most of it
    },
  });
  return { heap, keeper };
}

describe("HeapKeeper", () => {
  it("leaves a small heap to V8", () => {
    const { heap, keeper } = plantedHeap();
    for (const used of [10, 100, COLLECT_ABOVE_BYTES / MB - 1]) {
      heap.used = used * MB;
      expect(keeper.afterItem()).toBe(false);
    }
    expect(heap.collectedAt).toEqual([]);
  });

  it("collects past the threshold, then again only after the heap has grown by the step", () => {
    const { heap, keeper } = plantedHeap();
    heap.live = COLLECT_ABOVE_BYTES; // a set whose live data is as large as the threshold
    heap.used = COLLECT_ABOVE_BYTES + MB;
    expect(keeper.afterItem()).toBe(true);
    // Past the threshold, but not grown enough since the collection: left alone.
    heap.used = COLLECT_ABOVE_BYTES + COLLECT_AFTER_GROWTH_BYTES - MB;
    expect(keeper.afterItem()).toBe(false);
    heap.used = COLLECT_ABOVE_BYTES + COLLECT_AFTER_GROWTH_BYTES;
    expect(keeper.afterItem()).toBe(true);
    expect(keeper.collections).toBe(2);
    expect(heap.collectedAt).toEqual([COLLECT_ABOVE_BYTES + MB, COLLECT_ABOVE_BYTES + COLLECT_AFTER_GROWTH_BYTES]);
  });

  it("really collects this thread's heap with the collector it makes itself", () => {
    const keeper = new HeapKeeper({ aboveBytes: 0, afterGrowthBytes: 0 });
    expect(keeper.afterItem()).toBe(true);
    expect(keeper.collections).toBe(1);
  });
});

/** Sends `items` to a served port and resolves with the answers, in order. */
async function serve(items: readonly number[], keeper: HeapKeeper, heap: { used: number; busy?: number; mostBusy?: number }): Promise<unknown[]> {
  const { port1, port2 } = new MessageChannel();
  serveItems(
    () => {},
    async (item: number) => {
      heap.busy = (heap.busy ?? 0) + 1;
      heap.mostBusy = Math.max(heap.mostBusy ?? 0, heap.busy);
      await new Promise((resolve) => setTimeout(resolve, 5)); // an await inside, as emitTool has
      heap.used += item * MB; // each item leaves its garbage behind
      heap.busy--;
      return item * 2;
    },
    String,
    { port: port1 as MessagePort, heap: keeper },
  );
  const answers: unknown[] = [];
  const done = new Promise<void>((resolve) => {
    port2.on("message", (reply: { outcome: { value: unknown } }) => {
      answers.push(reply.outcome.value);
      if (answers.length === items.length) resolve();
    });
  });
  port2.postMessage({ setup: null });
  for (const [index, item] of items.entries()) port2.postMessage({ index, item });
  await done;
  port1.close();
  port2.close();
  return answers;
}

describe("a served worker", () => {
  it("asks its keeper after each answer, and the keeper collects once the thresholds are passed", async () => {
    const { heap, keeper } = plantedHeap({ aboveBytes: 100 * MB, afterGrowthBytes: 50 * MB });
    // 60; 120: collect, 30 live; 90: grown 60 but under 100; 150: collect.
    expect(await serve([60, 60, 60, 60], keeper, heap)).toEqual([120, 120, 120, 120]);
    expect(heap.collectedAt).toEqual([120 * MB, 150 * MB]);
  });

  it("handles one item at a time, though the pool sends the next one ahead", async () => {
    const { heap, keeper } = plantedHeap();
    const seen: { used: number; busy?: number; mostBusy?: number } = heap;
    expect(await serve([1, 2, 3], keeper, seen)).toEqual([2, 4, 6]);
    expect(seen.mostBusy).toBe(1);
  });
});
