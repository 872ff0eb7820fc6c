// The valid path of a guarded call against the floor it cannot beat: JSON.parse + the same
// validator. Run: node bench/guard-valid-path.ts
import { defineTool } from "../templates/runtime/call/define-tool.ts";
import type { LedgerEntry, LedgerSink } from "../templates/runtime/ledger/ledger.ts";
import { invoiceSpec, validInvoice } from "../test/runtime/invoice-spec.ts";

export interface GuardBenchResult {
  readonly parseValidateNs: number;
  readonly parseValidateAwaitedNs: number;
  readonly guardedCallNs: number;
  /** Guarded call over awaited JSON.parse + validate: the guard's own cost. */
  readonly ratio: number;
}

/** A sink that keeps the last entry only: the bench measures the guard, not disk I/O. */
class LastEntrySink implements LedgerSink {
  last: LedgerEntry | undefined;
  append(entry: LedgerEntry): void {
    this.last = entry;
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export async function benchGuardValidPath(iterations: number = 100_000): Promise<GuardBenchResult> {
  const spec = invoiceSpec();
  const text = JSON.stringify({ ...validInvoice, line_items: [...validInvoice.line_items, { sku: "GADGET-22", quantity: 3, unit_price: 19.5 }] });
  const tool = defineTool(spec).implement(() => undefined, { ledger: new LastEntrySink() });
  const context = { turn: "bench" };
  let sink = 0;

  const sync = (): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) if (spec.validate(JSON.parse(text))) sink++;
    return Number(process.hrtime.bigint() - start) / iterations;
  };
  const awaited = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) if (await Promise.resolve(spec.validate(JSON.parse(text)))) sink++;
    return Number(process.hrtime.bigint() - start) / iterations;
  };
  const guarded = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) if ((await tool.call(text, context)).status === "ok") sink++;
    return Number(process.hrtime.bigint() - start) / iterations;
  };

  // Warm up every path, then measure the two paths in adjacent pairs (the machine's load shifts
  // over seconds) and report the median pair's ratio.
  sync();
  await awaited();
  await guarded();
  const rounds: { sync: number; awaited: number; guarded: number }[] = [];
  for (let round = 0; round < 9; round++) rounds.push({ sync: sync(), awaited: await awaited(), guarded: await guarded() });
  if (sink === 0) throw new Error("nothing validated");
  rounds.sort((a, b) => a.guarded / a.awaited - b.guarded / b.awaited);
  const median = rounds[4] as { sync: number; awaited: number; guarded: number };
  return { parseValidateNs: median.sync, parseValidateAwaitedNs: median.awaited, guardedCallNs: median.guarded, ratio: median.guarded / median.awaited };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchGuardValidPath();
  console.log(
    `valid path: JSON.parse+validate ${result.parseValidateNs.toFixed(0)} ns (awaited ${result.parseValidateAwaitedNs.toFixed(0)} ns), ` +
      `guarded call ${result.guardedCallNs.toFixed(0)} ns, ratio ${result.ratio.toFixed(2)}x`,
  );
}
