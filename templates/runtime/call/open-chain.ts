// The ledger chain a turn has open (chain-store.ts keeps it in the turn's state): the attempts
// since the turn's last success or error, and the id its entries share, minted when first read.
import type { LedgerAttempt } from "../ledger/ledger.ts";
import { chainId } from "../ledger/chain-id.ts";

/** The ledger chain a turn has open: the attempts since its last success or error. */
export class OpenChain {
  readonly startedAt: number;
  readonly attempts: LedgerAttempt[];
  #id: string | undefined;

  constructor(startedAt: number, first: LedgerAttempt) {
    this.startedAt = startedAt;
    // A literal of one: open chains are kept (thousands of them), and an empty array grown by
    // `push` would carry sixteen spare slots each.
    this.attempts = [first];
  }

  /** Minted on first read, which is when its first ledger entry is serialised: off the call's path. */
  get id(): string {
    return (this.#id ??= chainId());
  }
}
