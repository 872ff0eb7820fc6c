// What a shared chain store must do: count a repair chain's failed attempts where every replica
// that serves the chain sees the same count. Types only, so that the adapters, the embedded
// counter (call/shared-chains.ts) and the PostgreSQL one (extras/postgres/) share them.

/** A chain's standing after one failed attempt was counted in it. */
export interface ChainTally {
  /** Failed attempts in the chain, the one just counted included. */
  readonly failures: number;
  /** Failed attempts the chain allows, fixed by its first failure (2, or 3 after truncation). */
  readonly budget: number;
}

/**
 * Implement this to count repair chains across processes (PostgreSQL: `openPostgresStores` in the
 * `postgres` extra). Both methods may be synchronous or return promises.
 */
export interface ChainCounter {
  /**
   * Counts one failed attempt in `key`'s chain, in one atomic step: concurrent calls from any
   * number of processes each see a different `failures`. A chain without a counted failure for
   * `windowMs` is gone: the next failure starts a new one with `budget`. Failures past the
   * budget (refused calls) are counted but do not extend the window.
   */
  fail(key: string, budget: number, windowMs: number): ChainTally | Promise<ChainTally>;
  /** Ends `key`'s chain (a call succeeded): the next failure starts a new one. */
  close(key: string): void | Promise<void>;
}
