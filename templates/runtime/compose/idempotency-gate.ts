// Runs a validated call under its idempotency key: at most once per key and payload, with
// concurrent duplicates in this process sharing the one run, and a different payload under a
// used key reported as a conflict instead of being run or answered with someone else's result.
import { recordId, type IdempotencyStore } from "./idempotency-store.ts";

/** What happened to a call that went through the gate. */
export type GateResult<Result> =
  | { readonly kind: "ran"; readonly result: Result }
  | { readonly kind: "replayed"; readonly result: Result }
  | { readonly kind: "conflict"; readonly fingerprint: string };

/** How long to wait between asks while another process runs the same payload. */
const BUSY_POLL_MS = 25;

export class IdempotencyGate {
  readonly #store: IdempotencyStore;
  readonly #inflight = new Map<string, Promise<unknown>>();
  readonly #busyWaitMs: number;

  constructor(store: IdempotencyStore, options: { readonly busyWaitMs?: number } = {}) {
    this.#store = store;
    this.#busyWaitMs = options.busyWaitMs ?? 30_000;
  }

  async run<Result>(tool: string, key: string, fingerprint: string, execute: () => Promise<Result> | Result): Promise<GateResult<Result>> {
    const id = recordId(tool, key);
    const deadline = Date.now() + this.#busyWaitMs;
    for (;;) {
      // A run of this key in this process: wait for it to settle, then ask the store again (it
      // now holds a result to replay, a conflict, or nothing if the run failed).
      const running = this.#inflight.get(id);
      if (running) {
        await running.then(noop, noop);
        continue;
      }
      const claim = await this.#store.claim(tool, key, fingerprint);
      if (claim.kind === "replay") return { kind: "replayed", result: claim.result as Result };
      if (claim.kind === "conflict") return { kind: "conflict", fingerprint: claim.fingerprint };
      if (claim.kind === "busy") {
        if (Date.now() >= deadline) throw new Error(`toolguard: ${tool} idempotency key ${key} is still held by another run after ${this.#busyWaitMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
        continue;
      }
      const run = this.#execute(tool, key, fingerprint, execute);
      this.#inflight.set(id, run);
      try {
        return { kind: "ran", result: await run };
      } finally {
        this.#inflight.delete(id);
      }
    }
  }

  async #execute<Result>(tool: string, key: string, fingerprint: string, execute: () => Promise<Result> | Result): Promise<Result> {
    let result: Result;
    try {
      result = await execute();
    } catch (error) {
      await this.#store.release(tool, key);
      throw error;
    }
    await this.#store.complete(tool, key, fingerprint, result);
    return result;
  }
}

function noop(): void {}
