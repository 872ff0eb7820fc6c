// An in-memory ledger for tests. Each entry is stored as its JSON round trip, so a test sees
// exactly what the file sink would have written.
import type { LedgerEntry, LedgerSink } from "./ledger.ts";

export class MemorySink implements LedgerSink {
  readonly entries: LedgerEntry[] = [];

  append(entry: LedgerEntry): void {
    this.entries.push(JSON.parse(JSON.stringify(entry)) as LedgerEntry);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The most recent entry, if any. */
  last(): LedgerEntry | undefined {
    return this.entries[this.entries.length - 1];
  }
}
