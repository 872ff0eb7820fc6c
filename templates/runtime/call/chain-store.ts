// Repair chains in memory: every attempt at one tool within one turn, keyed by the caller's
// `turn`. Bounded two ways so a long-running process cannot grow it without limit: at most
// `maxChains` live chains (the oldest is evicted first) and each expires `ttlMs` after its last
// attempt. An evicted or expired chain is handed to `onDrop` so its attempts still reach the
// ledger. The store is per guarded tool and per process: a deployment that spreads one turn's
// calls over several processes must route a turn to one process to keep the bound exact.
import type { Candidate } from "../contract/api.ts";
import type { ArgumentError, FailureClass } from "../contract/outcome.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";

export interface Chain {
  /** The chain's id in the ledger. */
  readonly id: string;
  readonly turn: string;
  readonly startedAt: number;
  readonly attempts: LedgerAttempt[];
  /** Failed attempts the chain allows: 2, or 3 when its first failure was truncation; 0 until it has failed. */
  maxAttempts: number;
  /** Set once the chain was refused; later calls in the turn are refused at once. */
  rejected: boolean;
  lastFailure: FailureClass | undefined;
  lastErrors: readonly ArgumentError[];
  touchedAt: number;
  /** Candidates offered for reference fields, by JSON Pointer: such a field now accepts only their ids. */
  offers: Map<string, readonly Candidate[]> | undefined;
}

export interface ChainStoreOptions {
  readonly maxChains: number;
  readonly ttlMs: number;
  readonly onDrop: (chain: Chain) => void;
}

export const DEFAULT_CHAIN_LIMITS: Omit<ChainStoreOptions, "onDrop"> = { maxChains: 10_000, ttlMs: 15 * 60_000 };

export class ChainStore {
  readonly #chains: Map<string, Chain> = new Map();
  readonly #options: ChainStoreOptions;
  /** No chain expires before this time (a lower bound: chains deleted since may have set it). */
  #sweepAt = Infinity;

  constructor(options: ChainStoreOptions) {
    this.#options = options;
  }

  /** The live chain for `turn`, if any; an expired one is dropped first. */
  get(turn: string): Chain | undefined {
    const chain = this.#chains.get(turn);
    if (chain === undefined) return undefined;
    if (Date.now() - chain.touchedAt <= this.#options.ttlMs) return chain;
    this.#drop(turn, chain);
    return undefined;
  }

  /** Stores or refreshes `chain`, so the least recently used chain is evicted first. */
  put(chain: Chain, now: number): void {
    chain.touchedAt = now;
    this.#chains.delete(chain.turn);
    this.#chains.set(chain.turn, chain);
    this.#sweepAt = Math.min(this.#sweepAt, now + this.#options.ttlMs);
    if (this.#chains.size > this.#options.maxChains || now > this.#sweepAt) this.#sweep(now);
  }

  /**
   * Drops expired chains, oldest first, and past the cap the oldest 1/64 of it at once. Finding
   * the oldest entry walks a Map over the slots of every entry deleted since it last compacted
   * (thousands, in a full store), so this runs only when something is due, not on every put.
   */
  #sweep(now: number): void {
    const { maxChains, ttlMs } = this.#options;
    const target = this.#chains.size > maxChains ? maxChains - (maxChains >> 6) : maxChains;
    this.#sweepAt = Infinity;
    for (const [turn, oldest] of this.#chains) {
      if (this.#chains.size <= target && now - oldest.touchedAt <= ttlMs) {
        // Chains are kept in order of their last attempt, so none expires before this one.
        this.#sweepAt = oldest.touchedAt + ttlMs;
        break;
      }
      this.#drop(turn, oldest);
    }
  }

  delete(turn: string): void {
    this.#chains.delete(turn);
  }

  get size(): number {
    return this.#chains.size;
  }

  #drop(turn: string, chain: Chain): void {
    this.#chains.delete(turn);
    this.#options.onDrop(chain);
  }
}
