// What an idempotency store must do (the stores are in compose/): types only, so that the
// public API, which takes a store, and the stores share them without a cycle.

/** What a store answers when the guard asks to run a call under a key. */
export type Claim =
  /** Nobody holds the key: run the tool, then `complete` (or `release` if it failed). */
  | { readonly kind: "run" }
  /** The same payload already ran: its stored result. */
  | { readonly kind: "replay"; readonly result: unknown }
  /** The key already ran, or is running, with another payload. */
  | { readonly kind: "conflict"; readonly fingerprint: string }
  /** Another process is running the same payload now: ask again later. */
  | { readonly kind: "busy" };

/**
 * Implement this to keep idempotency records elsewhere (Redis, Postgres). Results must survive
 * `JSON.stringify` for a durable store. Methods may be synchronous or return promises.
 */
export interface IdempotencyStore {
  /** Claims `key` for a payload, or says why not. Must be atomic per key across its users. */
  claim(tool: string, key: string, fingerprint: string): Claim | Promise<Claim>;
  /** Records the result of a claimed run. */
  complete(tool: string, key: string, fingerprint: string, result: unknown): void | Promise<void>;
  /** Frees a claimed key whose run failed, so a retry of the same intent may run. */
  release(tool: string, key: string): void | Promise<void>;
}
