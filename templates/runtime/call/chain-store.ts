// Repair chains in memory, one store per process: every attempt at one bound tool within one
// turn, keyed by the tool's binding and the caller's `turn`. Bounded so that a long-running
// process cannot grow it without limit, however many tools it binds:
//   - turns whose chain is open (it failed and waits for a repair) are at most `maxChains`, the
//     least recently used evicted first, and each expires `ttlMs` after its last attempt;
//   - turns that must stay refused or restricted (rejected, or offered reference candidates)
//     are held apart, at most `maxHeld` of them, and never expire by time: other turns'
//     failures and the passing of time cannot lift a rejection or let an un-offered identifier
//     through (only `maxHeld` other held turns can push one out).
// A dropped turn's open chain is handed to its owner so its attempts still reach the ledger.
// A deployment that spreads one turn's calls over several processes must route a turn to one
// process to keep the bound exact.
import { OpenTurns } from "./open-turns.ts";
import { EPOCH, type TurnState } from "./turn-state.ts";

export { TurnState, type TurnOwner } from "./turn-state.ts";

export interface ChainStoreOptions {
  readonly maxChains: number;
  readonly maxHeld: number;
  readonly ttlMs: number;
}

export const DEFAULT_CHAIN_LIMITS: ChainStoreOptions = { maxChains: 10_000, maxHeld: 10_000, ttlMs: 15 * 60_000 };

export class ChainStore {
  /**
   * Open turns by key, for lookups, and in order of their last put, least recent first, for
   * eviction (open-turns.ts: in a full store every failed call evicts a turn last touched 10,000
   * calls ago, and the store reads neither its index slot nor a neighbour to do it).
   */
  readonly #open: OpenTurns<TurnState> = new OpenTurns();
  readonly #held: Map<string, TurnState> = new Map();
  readonly #options: ChainStoreOptions;
  /** No open chain expires before this time (a lower bound: chains deleted since may have set it). */
  #sweepAt = Infinity;
  /** The last key `get` found nothing for, since the last `put`. */
  #lastMiss: string | undefined = undefined;

  constructor(options: ChainStoreOptions = DEFAULT_CHAIN_LIMITS) {
    this.#options = options;
  }

  /** The live state of `key`, if any; an expired open one is dropped first. */
  get(key: string): TurnState | undefined {
    // A failed call asks twice for a turn it does not have (to judge it, then to count it); the
    // answer holds until something is put, and a string comparison is cheaper than a lookup in a
    // full store.
    if (key === this.#lastMiss) return undefined;
    const found = this.#find(key);
    if (found === undefined) this.#lastMiss = key;
    return found;
  }

  #find(key: string): TurnState | undefined {
    if (this.#held.size > 0) {
      const held = this.#held.get(key);
      if (held !== undefined) return held;
    }
    if (this.#open.size === 0) return undefined;
    const turn = this.#open.get(key);
    if (turn === undefined) return undefined;
    if (Date.now() - EPOCH - turn.touchedAt <= this.#options.ttlMs) return turn;
    this.#dropOpen(turn);
    return undefined;
  }

  /** Stores or refreshes `turn` in the tier its state calls for, least recently used evicted first. */
  put(turn: TurnState, now: number = Date.now()): void {
    this.#lastMiss = undefined;
    // A turn never put before is in neither tier (the guard makes one only when `get` found
    // none): no lookups to take it out first, which a full store pays dearly for.
    const stored = turn.inStore;
    if (!stored) {
      turn.inStore = true;
      turn.owner.kept = (turn.owner.kept ?? 0) + 1;
    }
    turn.touchedAt = now - EPOCH;
    if (turn.held) {
      if (stored) {
        this.#open.remove(turn);
        this.#held.delete(turn.key);
      }
      this.#held.set(turn.key, turn);
      if (this.#held.size > this.#options.maxHeld) {
        for (const oldest of this.#held.values()) {
          this.#held.delete(oldest.key);
          this.#dropped(oldest);
          if (this.#held.size <= this.#options.maxHeld) break;
        }
      }
      return;
    }
    // A turn put again moves to the newest end (its old place left a hole).
    this.#open.push(turn, turn.touchedAt);
    this.#sweepAt = Math.min(this.#sweepAt, now + this.#options.ttlMs);
    if (this.#open.size > this.#options.maxChains || now > this.#sweepAt) this.#sweep(now);
  }

  /** Drops expired open chains, oldest first, and past the cap the oldest 1/64 of it at once. */
  #sweep(now: number): void {
    const { maxChains, ttlMs } = this.#options;
    const target = this.#open.size > maxChains ? maxChains - (maxChains >> 6) : maxChains;
    this.#sweepAt = Infinity;
    for (let oldest = this.#open.oldest(); oldest !== undefined; oldest = this.#open.oldest()) {
      // When it was put: the order's own copy of its `touchedAt`, so a turn kept is not read.
      const touchedAt = this.#open.oldestAt;
      if (this.#open.size <= target && now - EPOCH - touchedAt <= ttlMs) {
        // Chains are kept in order of their last attempt, so none expires before this one.
        this.#sweepAt = EPOCH + touchedAt + ttlMs;
        break;
      }
      this.#open.shift();
      this.#dropped(oldest);
    }
  }

  delete(turn: TurnState): void {
    if (!turn.inStore) return;
    this.#open.remove(turn);
    this.#held.delete(turn.key);
    this.#forget(turn);
  }

  /** Turns kept, open and held. */
  get size(): number {
    return this.#open.size + this.#held.size;
  }

  #dropOpen(turn: TurnState): void {
    this.#open.remove(turn);
    this.#dropped(turn);
  }

  /** A turn out of its tier: forgotten, and handed to its owner. */
  #dropped(turn: TurnState): void {
    this.#forget(turn);
    turn.owner.dropped(turn);
  }

  #forget(turn: TurnState): void {
    turn.inStore = false;
    turn.owner.kept = (turn.owner.kept ?? 1) - 1;
  }
}

/** The process's store: every guard binds into it, so the bound holds however many tools are bound. */
export const PROCESS_CHAINS: ChainStore = new ChainStore();
