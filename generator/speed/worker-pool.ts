// Spreads CPU-bound work over worker threads: each worker loads its module once, then takes one
// item at a time, the next going to whichever worker is free. Results come back in the items'
// order whatever order the workers finish in, so the output does not depend on scheduling.
import { availableParallelism } from "node:os";
import { type MessagePort, parentPort, Worker } from "node:worker_threads";
import { HeapKeeper } from "./heap.ts";

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

interface Job<T, R> {
  readonly item: T;
  readonly settle: (outcome: Outcome<R>) => void;
  readonly fail: (error: Error) => void;
}

/**
 * Worker threads running `script` (a module that calls `serveItems`). Each worker first gets
 * `setup` (what every item needs and is costly to compute, computed once here), and starts
 * loading its modules at once, while `setup` and whatever else this thread does are under way.
 * Items wait in one queue and go to whichever worker has room. Workers never keep the process
 * alive; `close` stops them.
 */
export class WorkerPool<T, R> {
  readonly #script: URL;
  readonly #setup: Promise<unknown>;
  readonly #workers: { readonly worker: Worker; ready: boolean; inFlight: number }[] = [];
  readonly #queue: Job<T, R>[] = [];
  readonly #pending = new Map<number, Job<T, R>>();
  #nextId = 0;
  #crash: Error | undefined;
  #closed = false;

  constructor(script: URL, setup: Promise<unknown>) {
    this.#script = script;
    this.#setup = setup;
  }

  /** Starts workers until there are `threads`. */
  grow(threads: number): void {
    while (this.#workers.length < threads) {
      const worker = new Worker(this.#script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      const slot = { worker, ready: false, inFlight: 0 };
      worker.unref();
      worker.on("error", (error) => this.#crashed(error));
      worker.on("exit", (code) => {
        if (!this.#closed) this.#crashed(new Error(`a generation worker exited (code ${code}) before its work was done`));
      });
      worker.on("message", ({ index, outcome }: Reply) => {
        const job = this.#pending.get(index);
        this.#pending.delete(index);
        slot.inFlight--;
        job?.settle(outcome as Outcome<R>);
        this.#dispatch();
      });
      this.#setup.then(
        (data) => {
          worker.postMessage({ setup: data });
          slot.ready = true;
          this.#dispatch();
        },
        (error: unknown) => this.#crashed(error),
      );
      this.#workers.push(slot);
    }
  }

  /**
   * Runs one item on whichever worker is free first; `first` puts it ahead of the items already
   * waiting. Rejects when a worker dies; an item's own error is an outcome, not a crash.
   */
  run(item: T, options: { readonly first?: boolean } = {}): Promise<Outcome<R>> {
    if (this.#workers.length === 0) this.grow(1);
    return new Promise<Outcome<R>>((settle, fail) => {
      if (this.#crash) return fail(this.#crash);
      const job = { item, settle, fail };
      if (options.first) this.#queue.unshift(job);
      else this.#queue.push(job);
      this.#dispatch();
    });
  }

  close(): void {
    this.#closed = true;
    for (const { worker } of this.#workers) void worker.terminate();
  }

  // Each worker holds at most QUEUED_PER_WORKER items; the rest wait here, so that whichever
  // worker frees up first takes the next one.
  #dispatch(): void {
    for (const slot of this.#workers) {
      while (slot.ready && slot.inFlight < QUEUED_PER_WORKER && this.#queue.length > 0) {
        const job = this.#queue.shift() as Job<T, R>;
        const index = this.#nextId++;
        this.#pending.set(index, job);
        slot.inFlight++;
        slot.worker.postMessage({ index, item: job.item });
      }
    }
  }

  #crashed(error: unknown): void {
    this.#crash ??= error instanceof Error ? error : new Error(String(error));
    for (const job of [...this.#pending.values(), ...this.#queue.splice(0)]) job.fail(this.#crash);
    this.#pending.clear();
  }
}

/**
 * The worker's side: hands the setup data to `setup`, then answers each item with `handle`'s
 * result or `encodeError` of what it threw. After each answer, the worker's garbage is collected
 * when its heap is large (heap.ts): what is left of the answered item is garbage by then. `options` are for tests: another port, another keeper.
 */
export function serveItems<T, R>(
  setup: (data: unknown) => void,
  handle: (item: T) => Promise<R>,
  encodeError: (error: unknown) => unknown,
  options: { readonly port?: MessagePort; readonly heap?: HeapKeeper } = {},
): void {
  const port = options.port ?? parentPort;
  if (!port) throw new Error("serveItems runs in a worker thread");
  const heap = options.heap ?? new HeapKeeper();
  const answer = (reply: Reply): void => {
    port.postMessage(reply);
    heap.afterItem();
  };
  // One item at a time: the one queued behind (QUEUED_PER_WORKER) starts when the one before is
  // answered. Started at once, two tools' working sets were live together in one heap whenever
  // the first awaited (json-schema-to-typescript does), for no gain: the work is all CPU.
  let previous: Promise<void> = Promise.resolve();
  port.on("message", (message: { setup: unknown } | { index: number; item: T }) => {
    if ("setup" in message) return setup(message.setup);
    const { index, item } = message;
    previous = previous.then(() =>
      handle(item).then(
        (value) => answer({ index, outcome: { ok: true, value } }),
        (error: unknown) => answer({ index, outcome: { ok: false, error: encodeError(error) } }),
      ),
    );
  });
}
