// Idempotency keys with a memory: key -> payload fingerprint -> result. The key names the
// intent (by default the hash of the validated arguments; `keyOf` can name it by a subset, such
// as the customer and the period of an invoice); the fingerprint is always the hash of the whole
// validated payload. The same key with the same payload returns the stored result without
// running the tool again; the same key with a different payload is a conflict, never a replay.
//
// Stores only remember; `IdempotencyGate` (beside this file) decides, and runs concurrent
// duplicates once.

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

/** Default time a stored result is kept: one day. */
export const DEFAULT_IDEMPOTENCY_TTL_MS: number = 24 * 60 * 60 * 1000;

interface MemoryRecord {
  readonly fingerprint: string;
  readonly running: boolean;
  readonly result: unknown;
  readonly expiresAt: number;
}

/**
 * A store in this process's memory: for tests and single-process services. Records expire after
 * `ttlMs`; at most `maxEntries` are kept (the oldest go first).
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #records = new Map<string, MemoryRecord>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { readonly ttlMs?: number; readonly maxEntries?: number; readonly now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  claim(tool: string, key: string, fingerprint: string): Claim {
    const id = recordId(tool, key);
    const now = this.#now();
    const record = this.#records.get(id);
    if (record && record.expiresAt > now) {
      if (record.fingerprint !== fingerprint) return { kind: "conflict", fingerprint: record.fingerprint };
      // A running record of this process is awaited by the gate before it asks again.
      return record.running ? { kind: "busy" } : { kind: "replay", result: record.result };
    }
    this.#set(id, { fingerprint, running: true, result: undefined, expiresAt: now + this.#ttlMs });
    return { kind: "run" };
  }

  complete(tool: string, key: string, fingerprint: string, result: unknown): void {
    this.#set(recordId(tool, key), { fingerprint, running: false, result, expiresAt: this.#now() + this.#ttlMs });
  }

  release(tool: string, key: string): void {
    this.#records.delete(recordId(tool, key));
  }

  #set(id: string, record: MemoryRecord): void {
    this.#records.delete(id);
    this.#records.set(id, record);
    if (this.#records.size > this.#maxEntries) {
      const oldest = this.#records.keys().next();
      if (!oldest.done) this.#records.delete(oldest.value);
    }
  }
}

/** One namespace per tool: two tools may mint the same key for different intents. */
export function recordId(tool: string, key: string): string {
  return `${tool}\u0000${key}`;
}
