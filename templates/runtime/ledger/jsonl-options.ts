// The JSONL sink's options and counters, with their defaults (docs/ledger.md).

export interface JsonlFileSinkOptions {
  /**
   * The ledger: the file its owner (one writer at a time) appends to, beside which the other
   * writers' files and the closed files go, and the path every reader takes. Default
   * `.toolguard/ledger.jsonl` under the working directory.
   */
  readonly path?: string;
  /** Called with every write failure, and with each warning about drops (at most one per 10 s), besides the process warning. */
  readonly onError?: (error: Error) => void;
  /**
   * When written lines are synced to disk (`fdatasync`). Under `"interval"` (the default) and
   * `true`, every entry of a chain that holds a failure, and every entry a durable call waits on,
   * is synced before its envelope or outcome is returned; clean calls' lines are synced within
   * `syncIntervalMs` of their write (`"interval"`) or each slice before it counts as written
   * (`true`). `false` syncs nothing: the kernel writes lines back when it will. A process crash
   * (kill -9 included) loses no line written under any setting; a power loss or kernel crash loses
   * what was not yet synced (docs/ledger.md, "Durability contract").
   */
  readonly sync?: boolean | "interval";
  /** Under `sync: "interval"`: the longest a written clean line waits for its sync. Default 1,000 ms. */
  readonly syncIntervalMs?: number;
  /**
   * Entries of chains that hold a failure (a failed attempt, a repair, a refusal, a reference
   * question): `"write-through"` (default) writes each before the guard returns its envelope or
   * outcome, synced per `sync`, so a crash (kill -9 included) never loses one that was answered;
   * `"batched"` queues them with the clean calls' entries.
   */
  readonly failures?: "write-through" | "batched";
  /** Entries queued before the overflow policy applies. Default 4,096 (eight slices): more only keeps more objects alive for the garbage collector to copy. */
  readonly maxQueue?: number;
  /**
   * Past `maxQueue`: `"wait"` (default) delays guarded calls' outcomes until the sink has taken
   * the next slice, dropping only past twice the bound; `"drop"` drops new entries and counts them.
   */
  readonly overflow?: "wait" | "drop";
  /**
   * Under `overflow: "wait"`: the most calls held back at once. A call past it is not held: it
   * gets its outcome at once (never an error), and its entry is queued, or past twice `maxQueue`
   * dropped and counted. In durable mode, also the most calls waiting for their entries: a call
   * past it is not run and gets `ledger_unavailable` (the ledger is behind), and its refusal is
   * recorded with that verdict. Default `maxQueue` (4,096).
   */
  readonly maxWaiting?: number;
  /** Size at which a writer's live file is closed and a new one started. Default 64 MiB; `Infinity` never rotates. */
  readonly maxFileBytes?: number;
  /**
   * Closed (rotated) files kept, across every writer of the ledger, besides each running writer's
   * live file (docs/ledger.md "Files on disk"). Default 2.
   */
  readonly maxFiles?: number;
  /**
   * Retention by age, besides size: a rotated file whose newest entry is older than this is
   * removed (its lines counted in `stats().rotatedAway`), and the live file is rotated once its
   * first entry is half this old, so an entry is kept at least this long and removed by about
   * 1.5 times it. Checked at a write, at most once a minute (or four times per `maxAgeMs`).
   * Default `Infinity`: files are kept by size alone (`maxFileBytes` x (1 + `maxFiles`)), so no
   * entry is removed for its age unless asked. The entry's age is its `startedAt`.
   */
  readonly maxAgeMs?: number;
  /** Longest line written; a longer entry is written as a stub with its length and hash. Default 1 MiB. */
  readonly maxEntryBytes?: number;
  /** Permissions of a ledger file the sink creates. Default 0o600 (owner only). */
  readonly mode?: number;
}

export const DEFAULT_LEDGER_PATH: string = ".toolguard/ledger.jsonl";

export type { LedgerSinkStats } from "../contract/ledger-entry.ts";

export function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`toolguard: JsonlFileSink option ${name} must be a positive number, got ${String(value)}`);
  return value;
}

export function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

export function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
