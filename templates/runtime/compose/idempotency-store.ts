// Idempotency keys with a memory: key -> payload fingerprint -> result. The key names the
// intent (by default the hash of the validated arguments; `keyOf` can name it by a subset, such
// as the customer and the period of an invoice); the fingerprint is always the hash of the whole
// validated payload. The same key with the same payload returns the stored result without
// running the tool again; the same key with a different payload is a conflict, never a replay.
//
// Stores only remember; `IdempotencyGate` (beside this file) decides, and runs concurrent
// duplicates once.

import type { Claim, IdempotencyStore } from "../contract/idempotency-store.ts";

export type { Claim, IdempotencyStore };

/** Default time a stored result is kept: one day. */
export const DEFAULT_IDEMPOTENCY_TTL_MS: number = 24 * 60 * 60 * 1000;

interface MemoryRecord {
  readonly fingerprint: string;
  readonly running: boolean;
  readonly result: unknown;
  readonly expiresAt: number;
}

/** Options of `MemoryIdempotencyStore`. */
export interface MemoryIdempotencyOptions {
  /** How long a stored result is kept, in milliseconds. Default one day. */
  readonly ttlMs?: number;
  /**
   * Most records held at once. Only expired records are ever dropped: a claim for a new key
   * while this many unexpired records are held throws `IdempotencyStoreFullError`, and the call
   * does not run (forgetting a live key would let its intent run twice). Default 100,000.
   */
  readonly maxEntries?: number;
  /** The clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** What a memory store holds and has refused, for monitoring. */
export interface MemoryIdempotencyStats {
  /** Records held now (running or completed, unexpired or not yet dropped). */
  readonly entries: number;
  /** Expired records dropped so far. */
  readonly expired: number;
  /** Claims refused because the store was full of unexpired records. */
  readonly refused: number;
}

/**
 * A claim for a new key found the memory store full of records that have not expired: the call
 * was not run. Remembering fewer would mean running some intent twice; size the store for the
 * calls of one `ttlMs`, or use the SQLite store (`openSqliteIdempotencyStore`).
 */
export class IdempotencyStoreFullError extends Error {
  readonly maxEntries: number;

  constructor(tool: string, maxEntries: number, ttlMs: number) {
    super(
      `toolguard: ${tool} was not run: the MemoryIdempotencyStore holds ${maxEntries} records that have not expired (maxEntries; ttlMs ${ttlMs}) and forgets none of them early, so it cannot take a new key. Raise maxEntries, lower ttlMs, or use openSqliteIdempotencyStore`,
    );
    this.name = "IdempotencyStoreFullError";
    this.maxEntries = maxEntries;
  }
}

/**
 * A store in this process's memory: for tests and single-process services. Records expire after
 * `ttlMs`; at most `maxEntries` are held, and one is dropped only once it has expired, never to
 * make room (see `IdempotencyStoreFullError`).
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #records = new Map<string, MemoryRecord>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  #expired = 0;
  #refused = 0;

  constructor(options: MemoryIdempotencyOptions = {}) {
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
    if (record === undefined && this.#records.size >= this.#maxEntries) {
      this.#dropExpired(now);
      if (this.#records.size >= this.#maxEntries) {
        this.#refused++;
        throw new IdempotencyStoreFullError(tool, this.#maxEntries, this.#ttlMs);
      }
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

  /** Records held, expired records dropped, claims refused for want of room. */
  stats(): MemoryIdempotencyStats {
    return { entries: this.#records.size, expired: this.#expired, refused: this.#refused };
  }

  #set(id: string, record: MemoryRecord): void {
    // Re-inserted, so the map stays in order of expiry (one ttl for all): the oldest come first.
    this.#records.delete(id);
    this.#records.set(id, record);
  }

  /** Drops expired records from the front (the oldest); stops at the first that has not expired. */
  #dropExpired(now: number): void {
    for (const [id, record] of this.#records) {
      if (record.expiresAt > now) return;
      this.#records.delete(id);
      this.#expired++;
    }
  }
}

/** One namespace per tool: two tools may mint the same key for different intents. */
export function recordId(tool: string, key: string): string {
  return `${tool}\u0000${key}`;
}
