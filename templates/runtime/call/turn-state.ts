// What the guard remembers of one turn at one bound tool, as the chain store (chain-store.ts)
// keeps it: the turn's budget, its refusal and offers, its open ledger chain, and the store's own
// place for it in its order and index.
import type { Candidate } from "../contract/api.ts";
import type { LedgerAttempt } from "../ledger/ledger.ts";
import { chainId } from "../ledger/chain-id.ts";
import { LaterChain, type ChainIdentity } from "./open-chain.ts";

/**
 * The clock readings a turn keeps are milliseconds since this module was loaded: small integers,
 * which the engine keeps in the turn itself, where a reading of `Date.now()` (past 2^31) would be
 * a separate boxed number per field, one more object per kept turn for every scavenge to copy.
 * A process up for more than 24 days gets boxed numbers again, and the same answers.
 */
export const EPOCH: number = Date.now();

/** What a store tells a turn's owner (its guard) when it drops the turn. */
export interface TurnOwner {
  dropped(turn: TurnState): void;
  /**
   * How many of the owner's turns the store holds, kept by the store (never less than the true
   * number; more only after parallel calls of one turn replaced each other's state). At 0 the
   * owner knows, without a lookup, that a turn of its own has no state.
   */
  kept?: number;
}

/**
 * Everything the guard remembers of one turn at one bound tool. Parallel calls in the turn share
 * its open chain and that chain's budget; a success closes the chain, and the next failure opens
 * one with a fresh budget, but the turn's failures over all its chains stay bounded too.
 *
 * The open chain lives in the turn's own fields (its attempts: `first`, then `later`), and the
 * turn is its first chain's identity (`startedAt`, `id`): a full store keeps thousands of turns
 * of one failed attempt each, and every object a turn keeps is copied by each scavenge that finds
 * it alive and read again, cold, when the turn is evicted (a chain of its own, its one-attempt
 * list and the list's backing store were three more objects per failed call).
 */
export class TurnState implements ChainIdentity {
  readonly key: string;
  readonly turn: string;
  readonly owner: TurnOwner;
  /** When the store last took it in, in ms since `EPOCH`; -1 until the first time. */
  touchedAt = -1;
  /** In one of the store's tiers now (put, and not deleted or dropped since). */
  inStore = false;
  /** Failed attempts in the turn, over all its chains. */
  failures = 0;
  /** Failed attempts in the open chain. */
  chainFailures = 0;
  /** Failed attempts the open chain allows: 2, or 3 when its first failure was cut off by the provider; 0 until it has failed. */
  maxFailures = 0;
  /** Reference questions asked in the turn (bounded: see MAX_QUESTIONS). */
  questions = 0;
  /** Set once the turn was refused; later calls in it are refused at once. */
  rejected = false;
  /** Candidates offered for reference fields, by JSON Pointer: such a field now accepts only their ids. */
  offers: Map<string, readonly Candidate[]> | undefined = undefined;
  /** The open ledger chain's identity, if one is open: the turn itself for its first chain (see `append`). */
  chain: ChainIdentity | undefined = undefined;
  /** The open chain's first attempt; undefined while no chain is open. */
  first: LedgerAttempt | undefined = undefined;
  /** The open chain's attempts after its first, once it has any. */
  later: LedgerAttempt[] | undefined = undefined;
  /** When the turn's first chain started, in ms since `EPOCH`; undefined until it has one. */
  #started: number | undefined = undefined;
  #id: string | undefined = undefined;
  /** The store's place for it in its order of open turns (open-turns.ts): -1 when not in the open tier. */
  orderAt = -1;
  /** Whether the store's index of open turns finds it under its key (open-turns.ts). */
  indexed = false;
  /** The store's index of open turns writes this (open-turns.ts): 0 until it first indexes the turn. */
  indexHash = 0;

  constructor(key: string, turn: string, owner: TurnOwner) {
    this.key = key;
    this.turn = turn;
    this.owner = owner;
  }

  /** When the turn's first chain started, in ms since the Unix epoch (read once it has one). */
  get startedAt(): number {
    return EPOCH + (this.#started ?? Number.NaN);
  }

  /** The id of the turn's first chain: minted on first read, when its first ledger entry is serialised (off the call's path). */
  get id(): string {
    return (this.#id ??= chainId());
  }

  /**
   * Adds an attempt to the open chain, opening one if none is; returns the chain's identity.
   * `now`: the clock as the caller read it, when it puts the turn in the store with the same
   * reading (one clock read per failure).
   */
  append(record: LedgerAttempt, now?: number): ChainIdentity {
    if (this.first === undefined) {
      this.first = record;
      if (this.#started === undefined) {
        this.#started = (now ?? Date.now()) - EPOCH;
        this.chain = this;
      } else this.chain = new LaterChain(now ?? Date.now()); // entries of the turn's earlier chain keep the turn's id
    } else if (this.later === undefined)
      this.later = [record]; // a literal: an array grown by `push` carries sixteen spare slots
    else this.later.push(record);
    return this.chain as ChainIdentity;
  }

  /** The open chain's attempts so far (0 when none is open). */
  get made(): number {
    return this.first === undefined ? 0 : 1 + (this.later?.length ?? 0);
  }

  /** The open chain's last attempt, if one is open. */
  get last(): LedgerAttempt | undefined {
    return this.later === undefined ? this.first : this.later.at(-1);
  }

  /** The open chain's attempts, in a fresh array of the caller's (an entry's, or one to extend). */
  attempts(): LedgerAttempt[] {
    if (this.first === undefined) return [];
    return this.later === undefined ? [this.first] : [this.first, ...this.later];
  }

  /**
   * Counts a failed attempt against the open chain (whose budget its first failure fixes) and
   * the turn; returns how many more failures both still allow (0: refuse).
   */
  spend(chainBudget: number, turnBudget: number): number {
    if (this.maxFailures === 0) this.maxFailures = chainBudget;
    this.failures++;
    this.chainFailures++;
    return Math.min(this.maxFailures - this.chainFailures, turnBudget - this.failures);
  }

  /** Ends the open chain (a success, or an error): the turn's failures stay counted. */
  close(): void {
    this.chain = undefined;
    this.first = undefined;
    this.later = undefined;
    this.chainFailures = 0;
    this.maxFailures = 0;
  }

  /** Must the store keep this turn apart from ordinary open chains? */
  get held(): boolean {
    return this.rejected || this.offers !== undefined;
  }
}
