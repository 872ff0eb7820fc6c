// Repair chains counted where several processes see them (contract/chain-counter.ts): the
// embedded counter for one process, and the guard rail every shared counter is used through.
// A shared counter is a dependency, and a failed attempt must still be answered: a counter
// that throws, rejects or does not answer in time is an outage, and the caller keeps its own
// process's bound (the guard's chain store) instead. The outage is said once per spell on
// stderr, counted (`toolguard.chain_store_unavailable`), and reported to the caller so it can
// mark the ledger; it never reaches the model as an error.
import { metrics } from "@opentelemetry/api";
import type { ChainCounter, ChainTally } from "../contract/chain-counter.ts";

export type { ChainCounter, ChainTally };

/** Chains kept by `MemoryChainCounter`; the least recently failed is forgotten first. */
const MAX_MEMORY_CHAINS = 10_000;

interface MemoryChain {
  failures: number;
  budget: number;
  expiresAt: number;
}

/** Chains in this process's memory: every server in the process shares one (PROCESS_CHAIN_COUNTER). */
export class MemoryChainCounter implements ChainCounter {
  readonly #chains = new Map<string, MemoryChain>();
  readonly #now: () => number;

  constructor(options: { readonly now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  fail(key: string, budget: number, windowMs: number): ChainTally {
    const now = this.#now();
    let chain = this.#chains.get(key);
    if (chain === undefined || chain.expiresAt <= now) chain = { failures: 0, budget, expiresAt: 0 };
    chain.failures++;
    if (chain.failures <= chain.budget) chain.expiresAt = now + windowMs;
    this.#chains.delete(key);
    this.#chains.set(key, chain);
    if (this.#chains.size > MAX_MEMORY_CHAINS) this.#chains.delete(this.#chains.keys().next().value as string);
    return { failures: chain.failures, budget: chain.budget };
  }

  close(key: string): void {
    this.#chains.delete(key);
  }
}

/** What a shared count came to: the tally, or why there is none (the local bound applies). */
export type SharedTally = { readonly ok: true; readonly tally: ChainTally } | { readonly ok: false; readonly reason: string };

/** How long a shared counter may take to answer before the call goes on without it. */
export const DEFAULT_COUNTER_TIMEOUT_MS = 2_000;

const UNAVAILABLE_DESCRIPTION = "Shared chain store operations that failed or timed out; the local process's bound applied";

/** A counter used so that its outage costs a warning and the local bound, never the call. */
export class GuardedCounter {
  readonly counter: ChainCounter;
  readonly #timeoutMs: number;
  /** Set while the counter is failing, so one spell of outage is one line on stderr. */
  #down = false;

  constructor(counter: ChainCounter, timeoutMs: number = DEFAULT_COUNTER_TIMEOUT_MS) {
    this.counter = counter;
    this.#timeoutMs = timeoutMs;
  }

  async fail(key: string, budget: number, windowMs: number): Promise<SharedTally> {
    try {
      const tally = await this.#bounded(() => this.counter.fail(key, budget, windowMs));
      if (!(Number.isInteger(tally?.failures) && Number.isInteger(tally?.budget)))
        throw new TypeError(`the counter answered ${JSON.stringify(tally)}, not {failures, budget}`);
      if (this.#down) {
        this.#down = false;
        console.warn("toolguard: the shared chain store answers again; repair chains are counted across replicas");
      }
      return { ok: true, tally };
    } catch (error) {
      return { ok: false, reason: this.#outage(error) };
    }
  }

  /**
   * Closes a chain; never rejects. Awaited, it is the valid path's one round trip, and the next
   * failure on any replica starts a new chain. A close that fails leaves a stricter chain; it
   * resolves with the outage's reason then (for the ledger's mark), else with undefined.
   */
  close(key: string): Promise<string | undefined> {
    return this.#bounded(() => this.counter.close(key)).then(
      () => undefined,
      (error: unknown) => this.#outage(error),
    );
  }

  #bounded<T>(step: () => T | Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      timer.unref?.();
    });
    return Promise.race([Promise.resolve().then(step), late]).finally(() => clearTimeout(timer));
  }

  #outage(error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    metrics.getMeter("toolguard").createCounter("toolguard.chain_store_unavailable", { description: UNAVAILABLE_DESCRIPTION }).add(1);
    if (!this.#down) {
      this.#down = true;
      console.warn(`toolguard: the shared chain store is unavailable (${reason}); each process bounds repair chains on its own until it answers`);
    }
    return reason;
  }
}
