// Spreads CPU-bound work over worker threads: each worker loads its module once, then takes one
// item at a time, the next going to whichever worker is free. Results come back in the items'
// order whatever order the workers finish in, so the output does not depend on scheduling.
import { availableParallelism } from "node:os";
import { parentPort, Worker } from "node:worker_threads";

/** What a worker answers for one item: its result, or the error it threw, as `encodeError` made it. */
export type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

interface Reply {
  readonly index: number;
  readonly outcome: Outcome<unknown>;
}

/**
 * A worker's young generation. V8's default lets each worker's heap grow by ~150 MB of garbage
 * between collections (GitHub's spec: 2 workers, ~1 GB peak); this keeps it near 650 MB for
 * the same CPU time.
 */
const YOUNG_GENERATION_MB = 32;

/**
 * Items in flight per worker: one ahead, so that it rarely waits for this thread, which may be
 * busy with work of its own (the package files) meanwhile. More would only hold more
 * half-emitted tools in memory.
 */
const QUEUED_PER_WORKER = 2;

/** Threads worth starting on this machine: one per core, at most `limit`. */
export function workerCount(limit = 4): number {
  return Math.max(1, Math.min(availableParallelism(), limit));
}

/**
 * Runs `script` (a module that calls `serveItems`) in `threads` workers over `items`. Each worker
 * first gets `setup` (what every item needs and is costly to compute, computed once here): the
 * workers start loading their modules while it is still being computed. Rejects, and stops
 * every worker, when a worker dies; an item's own error is an outcome, not a crash.
 */
export function mapInWorkers<T, R>(items: readonly T[], script: URL, threads: number, setup: Promise<unknown>): Promise<Outcome<R>[]> {
  const outcomes = new Array<Outcome<R>>(items.length);
  if (items.length === 0) return Promise.resolve(outcomes);
  const workers: Worker[] = [];
  return new Promise<Outcome<R>[]>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let failed = false;
    const stop = (): void => {
      for (const worker of workers) void worker.terminate();
    };
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      stop();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const feed = (worker: Worker): void => {
      if (next < items.length) {
        const index = next++;
        worker.postMessage({ index, item: items[index] });
      }
    };
    for (let i = 0; i < Math.min(threads, items.length); i++) {
      const worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      workers.push(worker);
      worker.on("message", ({ index, outcome }: Reply) => {
        outcomes[index] = outcome as Outcome<R>;
        done++;
        if (done === items.length) {
          stop();
          resolve(outcomes);
        } else {
          feed(worker);
        }
      });
      worker.on("error", fail);
      worker.on("exit", (code) => {
        if (done < items.length) fail(new Error(`a generation worker exited (code ${code}) before finishing its work`));
      });
    }
    setup.then((data) => {
      for (const worker of workers) {
        worker.postMessage({ setup: data });
        for (let queued = 0; queued < QUEUED_PER_WORKER; queued++) feed(worker);
      }
    }, fail);
  });
}

/**
 * The worker's side: hands the setup data to `setup`, then answers each item with `handle`'s
 * result or `encodeError` of what it threw.
 */
export function serveItems<T, R>(setup: (data: unknown) => void, handle: (item: T) => Promise<R>, encodeError: (error: unknown) => unknown): void {
  const port = parentPort;
  if (!port) throw new Error("serveItems runs in a worker thread");
  port.on("message", (message: { setup: unknown } | { index: number; item: T }) => {
    if ("setup" in message) return setup(message.setup);
    const { index, item } = message;
    handle(item).then(
      (value) => port.postMessage({ index, outcome: { ok: true, value } } satisfies Reply),
      (error: unknown) => port.postMessage({ index, outcome: { ok: false, error: encodeError(error) } } satisfies Reply),
    );
  });
}
