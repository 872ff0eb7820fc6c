// The identity of a ledger chain a turn opens after its first (turn-state.ts): when it started,
// and the id its entries share, minted when first read. A turn is its own first chain's identity
// (`TurnState` has the same two members), so a failure in a fresh turn, nearly every failure,
// makes no object for its chain. A later chain of the same turn (one opened after a success or an
// error closed the first) needs an object of its own: the entries of the earlier chain may still
// be waiting to be serialised, and read their id from the identity they were recorded with.
import { chainId } from "../ledger/chain-id.ts";

/** What a ledger entry reads of its chain: the start, and the id, minted on first read. */
export interface ChainIdentity {
  readonly startedAt: number;
  readonly id: string;
}

/** A turn's second or later chain (the first is the turn itself). */
export class LaterChain implements ChainIdentity {
  readonly startedAt: number;
  #id: string | undefined;

  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }

  /** Minted on first read, which is when its first ledger entry is serialised: off the call's path. */
  get id(): string {
    return (this.#id ??= chainId());
  }
}
