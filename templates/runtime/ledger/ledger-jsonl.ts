// The default ledger: an append-only JSON Lines file, one chain per line (format: docs/ledger.md).
//
// Durability: entries are written in batches through one handle opened with flag "a" (every
// write lands at the end of the file, also across processes) and synced to disk after each
// batch. A crash mid-write can leave at most one partial last line; the next process that
// opens the file starts on a fresh line, and `readLedger` skips any line that is not complete
// JSON, so earlier entries are never lost or corrupted.
//
// Failures are never silent: a batch that cannot be written is reported through
// `process.emitWarning`, the optional `onError`, and a rejected `flush()`.
import { mkdir, open, readFile, type FileHandle } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { LedgerEntry, LedgerSink } from "./ledger.ts";

export interface JsonlFileSinkOptions {
  /** The ledger file. Default `.toolguard/ledger.jsonl` under the working directory. */
  readonly path?: string;
  /** Called with every write failure, besides the process warning. */
  readonly onError?: (error: Error) => void;
  /** Sync each batch to disk (`fdatasync`) before counting it written. Default true. */
  readonly sync?: boolean;
}

export const DEFAULT_LEDGER_PATH: string = ".toolguard/ledger.jsonl";

export class JsonlFileSink implements LedgerSink {
  readonly path: string;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #sync: boolean;
  #pending: LedgerEntry[] = [];
  #scheduled = false;
  #writing: Promise<void> = Promise.resolve();
  #handle: Promise<{ handle: FileHandle; prefix: string }> | undefined;
  #failures: Error[] = [];
  #closed = false;

  constructor(options: JsonlFileSinkOptions = {}) {
    this.path = resolve(options.path ?? DEFAULT_LEDGER_PATH);
    this.#onError = options.onError;
    this.#sync = options.sync ?? true;
  }

  append(entry: LedgerEntry): void {
    if (this.#closed) {
      this.#report(new Error("the sink is closed"), 1);
      return;
    }
    this.#pending.push(entry);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Batch every entry appended in this turn of the event loop into one write.
    this.#writing = this.#writing.then(nextTick).then(() => this.#drain());
  }

  async flush(): Promise<void> {
    let writing: Promise<void>;
    do {
      writing = this.#writing;
      await writing;
    } while (writing !== this.#writing);
    if (this.#failures.length === 0) return;
    const failures = this.#failures;
    this.#failures = [];
    throw failures.length === 1 ? failures[0] : new AggregateError(failures, `toolguard ledger: ${failures.length} write failures`);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      if (this.#handle) await (await this.#handle.catch(() => undefined))?.handle.close();
    }
  }

  async #drain(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    try {
      let text = "";
      for (const entry of batch) text += JSON.stringify(entry) + "\n";
      this.#handle ??= this.#open();
      const file = await this.#handle;
      await file.handle.appendFile(file.prefix + text);
      file.prefix = "";
      if (this.#sync) await file.handle.datasync();
    } catch (error) {
      this.#report(error, batch.length);
    }
  }

  /** Opens the file for appending; a torn last line from an earlier crash gets its own line. */
  async #open(): Promise<{ handle: FileHandle; prefix: string }> {
    try {
      await mkdir(dirname(this.path), { recursive: true });
      const handle = await open(this.path, "a");
      const { size } = await handle.stat();
      let prefix = "";
      if (size > 0) {
        const reader = await open(this.path, "r");
        try {
          const { buffer } = await reader.read(Buffer.alloc(1), 0, 1, size - 1);
          if (buffer[0] !== 0x0a) prefix = "\n";
        } finally {
          await reader.close();
        }
      }
      return { handle, prefix };
    } catch (error) {
      this.#handle = undefined; // try again with the next batch
      throw error;
    }
  }

  #report(cause: unknown, lost: number): void {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new Error(`toolguard ledger: ${lost} ${lost === 1 ? "entry" : "entries"} could not be written to ${this.path}: ${reason}`, { cause });
    this.#failures.push(error);
    process.emitWarning(error.message, { type: "ToolguardLedgerWarning" });
    this.#onError?.(error);
  }
}

function nextTick(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}

/**
 * Reads a ledger file. Lines that are not complete JSON (the torn last line of a crashed
 * writer) are skipped; a missing file is an empty ledger.
 */
export async function readLedger(path: string = DEFAULT_LEDGER_PATH): Promise<LedgerEntry[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: LedgerEntry[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      entries.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // A torn line: the writer died mid-line. Everything before it is intact.
    }
  }
  return entries;
}

let shared: JsonlFileSink | undefined;

/** The process-wide default sink, created on first use and flushed before the process exits. */
export function defaultLedger(): JsonlFileSink {
  if (shared === undefined) {
    const sink = new JsonlFileSink();
    shared = sink;
    process.once("beforeExit", () => {
      sink.flush().catch(() => undefined); // failures were already reported as warnings
    });
  }
  return shared;
}
