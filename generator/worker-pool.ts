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
 * Worker threads running `script` (a module that calls `serveItems`). Each worker first gets
 * `setup` (what every item needs and is costly to compute, computed once here), and starts
 * loading its modules at once, while `setup` and whatever else this thread does are under way.
 * Workers never keep the process alive; `close` stops them.
 */
export class WorkerPool<T, R> {
  readonly #script: URL;
  readonly #setup: Promise<unknown>;
  readonly #workers: Worker[] = [];
  readonly #ready: Promise<void>[] = [];
  #crash: Error | undefined;
  #onCrash: ((error: Error) => void) | undefined;
  #closed = false;

  constructor(script: URL, setup: Promise<unknown>) {
    this.#script = script;
    this.#setup = setup;
  }

  /** Starts workers until there are `threads`. */
  grow(threads: number): void {
    while (this.#workers.length < threads) {
      const worker = new Worker(this.#script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      worker.unref();
      worker.on("error", (error) => this.#crashed(error));
      worker.on("exit", (code) => {
        if (!this.#closed) this.#crashed(new Error(`a generation worker exited (code ${code}) before its work was done`));
      });
      const ready = this.#setup.then((data) => worker.postMessage({ setup: data }));
      ready.catch(() => undefined); // reported by `map`, if it is ever called
      this.#workers.push(worker);
      this.#ready.push(ready);
    }
  }

  /**
   * Runs every item, one at a time per worker (plus one queued), the next going to whichever
   * worker is free; outcomes come back in the items' order. Rejects when a worker dies; an
   * item's own error is an outcome, not a crash.
   */
  async map(items: readonly T[]): Promise<Outcome<R>[]> {
    const outcomes = new Array<Outcome<R>>(items.length);
    if (items.length === 0) return outcomes;
    if (this.#workers.length === 0) this.grow(1);
    await Promise.all(this.#ready);
    return new Promise<Outcome<R>[]>((resolve, reject) => {
      if (this.#crash) return reject(this.#crash);
      this.#onCrash = reject;
      let next = 0;
      let done = 0;
      const feed = (worker: Worker): void => {
        if (next < items.length) {
          const index = next++;
          worker.postMessage({ index, item: items[index] });
        }
      };
      for (const worker of this.#workers) {
        worker.on("message", ({ index, outcome }: Reply) => {
          outcomes[index] = outcome as Outcome<R>;
          done++;
          if (done < items.length) return feed(worker);
          for (const each of this.#workers) each.removeAllListeners("message");
          this.#onCrash = undefined;
          resolve(outcomes);
        });
        for (let queued = 0; queued < QUEUED_PER_WORKER; queued++) feed(worker);
      }
    });
  }

  close(): void {
    this.#closed = true;
    for (const worker of this.#workers) void worker.terminate();
  }

  #crashed(error: unknown): void {
    this.#crash ??= error instanceof Error ? error : new Error(String(error));
    this.#onCrash?.(this.#crash);
  }
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
