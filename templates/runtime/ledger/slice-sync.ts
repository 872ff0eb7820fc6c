// When the JSONL sink's written lines reach the disk (`fdatasync`): the durability policy by what
// the entry is (docs/ledger.md, "Durability contract").
// - A failure's entry written through (`appendNow`), a failure queued under `failures: "batched"`,
//   and every entry a caller waits on through `written()` (durable calls; a failure's outcome in
//   `call`) are synced before they count as written, under every setting but `sync: false`.
// - Clean calls' lines are synced within `syncIntervalMs` of their write (`sync: "interval"`, the
//   default), or each slice before it counts (`sync: true`). An `fdatasync` costs a few hundred
//   microseconds of CPU and milliseconds of wall time whatever it covers, so one per interval
//   instead of one per slice takes it off the valid call; what it buys is survival of a power
//   loss or a kernel crash, which a process crash (kill -9 included) does not need: a line
//   written is in the kernel's cache, and the kernel writes it back.
import type { AppendFile } from "./append-file.ts";

export type SyncSetting = boolean | "interval";

const DEFAULT_INTERVAL_MS = 1000;

/** The `sync` and `syncIntervalMs` options, checked (a wrong one names itself and what it got). */
export function syncSetting(sync: unknown, intervalMs: unknown): { readonly sync: SyncSetting; readonly intervalMs: number } {
  if (sync !== undefined && sync !== true && sync !== false && sync !== "interval") {
    throw new TypeError(`toolguard: JsonlFileSink option sync must be true, false or "interval", got ${JSON.stringify(sync) ?? String(sync)}`);
  }
  const interval = intervalMs ?? DEFAULT_INTERVAL_MS;
  if (typeof interval !== "number" || !(interval > 0) || !Number.isFinite(interval)) {
    throw new RangeError(`toolguard: JsonlFileSink option syncIntervalMs must be a positive number of milliseconds, got ${String(intervalMs)}`);
  }
  return { sync: sync ?? "interval", intervalMs: interval };
}

export class SliceSync {
  readonly #file: AppendFile;
  readonly #everySlice: boolean;
  readonly #intervalMs: number;
  readonly #failed: (error: unknown, count: number) => void;
  /** Queue entries (as the sink's written count counts them) that must be synced before they count as written. */
  #through = 0;
  /** Lines written since the last sync began, for the report if the interval's sync fails. */
  #unsynced = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(file: AppendFile, setting: { readonly sync: SyncSetting; readonly intervalMs: number }, failed: (error: unknown, count: number) => void) {
    this.#file = file;
    this.#everySlice = setting.sync === true;
    this.#intervalMs = setting.sync === "interval" ? setting.intervalMs : Infinity;
    this.#failed = failed;
  }

  /** The first `through` entries queued must be synced before they count as written. */
  ask(through: number): void {
    if (through > this.#through) this.#through = through;
  }

  /**
   * Writes the slice of `count` entries that follows the first `before`: synced before it resolves
   * when the policy or an entry of it asks, else within the interval. Throws what the write or the
   * sync threw (the sink keeps the slice and retries it).
   */
  async write(data: Uint8Array, before: number, count: number): Promise<void> {
    const synced = this.#everySlice || this.#through > before;
    await this.#file.write(data, synced);
    if (synced) this.#unsynced = 0;
    else await this.#written(before, count);
  }

  /**
   * After a slice was written unsynced: synced now if an entry of it was asked for while it was
   * written, else within the interval.
   */
  async #written(before: number, count: number): Promise<void> {
    this.#unsynced += count;
    if (this.#through > before) {
      await this.#sync();
      return;
    }
    if (this.#timer !== undefined || this.#intervalMs === Infinity) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const lines = this.#unsynced;
      this.#sync().catch((error: unknown) => this.#failed(error, lines));
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Syncs every line written so far (`flush()`, `close()`, `written()`); a failure is reported, then thrown. */
  async flush(): Promise<void> {
    if (!this.#file.dirty) return;
    const lines = this.#unsynced;
    try {
      await this.#sync();
    } catch (error) {
      this.#failed(error, lines);
      throw error;
    }
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #sync(): Promise<void> {
    this.#unsynced = 0;
    return this.#file.syncDirty();
  }
}
