// Durable mode under overload (issue 26): at most `maxWaiting` calls wait for their entries; a
// call past the bound is not run and gets a `ledger_unavailable` outcome saying the ledger is
// behind, never a thrown error. And `flush()` / `close()` never reject for drops. Bounded by
// counts: the sink's writes only complete on a turn of the event loop, which the calls below
// never yield to until they are all made.
import { metrics } from "@opentelemetry/api";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { readLedger } from "../../templates/runtime/ledger/read.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

async function ledgerPath(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "toolguard-durable-")), "ledger.jsonl");
}

/** Lets promise callbacks run (the calls reach their wait for the sink), but no event-loop turn (no write completes). */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 50; i++) await null;
}

const invoice = (i: number): string => JSON.stringify({ ...validInvoice, amount: i + 1 });

describe("durable mode's bound on waiting calls (issue 26)", () => {
  it("past maxWaiting a call is not run: its outcome says the ledger is behind, its refusal is recorded", async () => {
    const path = await ledgerPath();
    const ledger = new JsonlFileSink({ path, maxWaiting: 5 });
    let ran = 0;
    const tool = defineTool(invoiceSpec()).implement(
      () => {
        ran++;
        return "done";
      },
      { ledger, durable: true },
    );
    const outcomes: Promise<{ status: string; detail?: string }>[] = [];
    const answered: number[] = [];
    for (let i = 0; i < 20; i++) {
      const outcome = tool.call(invoice(i), { turn: `t${i}` }) as Promise<{ status: string; detail?: string }>;
      void outcome.then(() => answered.push(i));
      outcomes.push(outcome);
      await microtasks();
    }
    // No write has completed yet (no event-loop turn): the refused calls are answered, the admitted ones still wait.
    expect(answered).toEqual(Array.from({ length: 15 }, (_, i) => i + 5));
    const settled = await Promise.all(outcomes);
    expect(settled.map((outcome) => outcome.status)).toEqual([...Array(5).fill("ok"), ...Array(15).fill("ledger_unavailable")]);
    expect(settled[5]?.detail).toMatch(/ledger is behind.*Do not change the arguments/);
    expect(ran).toBe(5);
    const stats = await ledger.close();
    expect(stats).toMatchObject({ appended: 20, written: 20, dropped: 0 });
    const verdicts = (await readLedger(path)).map((entry: LedgerEntry) => entry.verdict);
    expect(verdicts.filter((verdict) => verdict === "ok")).toHaveLength(5);
    expect(verdicts.filter((verdict) => verdict === "ledger_unavailable")).toHaveLength(15);
  });

  it("an open loop of durable calls keeps the calls in flight bounded by maxWaiting and the bursts, every call answered and recorded", async () => {
    const path = await ledgerPath();
    const ledger = new JsonlFileSink({ path, maxWaiting: 64 });
    const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger, durable: true });
    const BURST = 100;
    let inFlight = 0;
    let peak = 0;
    const statuses = new Map<string, number>();
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 4000; i++) {
      inFlight++;
      calls.push(
        tool.call(invoice(i), { turn: `o${i}` }).then((outcome) => {
          inFlight--;
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        }),
      );
      peak = Math.max(peak, inFlight);
      // Bursts on a clock of event-loop turns, whether or not earlier calls are answered.
      if (i % BURST === BURST - 1) await new Promise((done) => setImmediate(done));
    }
    await Promise.all(calls);
    // The bound counts calls waiting for their entries: a burst made in one synchronous turn is
    // admitted while fewer than maxWaiting wait, so at most maxWaiting + a burst wait, and the
    // next burst is in flight (answered at once) on top of them.
    expect(peak).toBeLessThanOrEqual(64 + 2 * BURST);
    expect((statuses.get("ok") ?? 0) + (statuses.get("ledger_unavailable") ?? 0)).toBe(4000);
    const stats = await ledger.close();
    expect(stats.appended).toBe(4000);
    expect(stats.written + stats.dropped).toBe(4000);
  });
});

describe("flush() and close() never reject for drops (issue 26)", () => {
  for (const overflow of ["wait", "drop"] as const) {
    it(`overflow "${overflow}": entries dropped past the bound leave flush() and close() resolving with the counters`, async () => {
      const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      try {
        const ledger = new JsonlFileSink({ path: await ledgerPath(), sync: false, maxQueue: 10, overflow });
        const tool = defineTool(invoiceSpec()).implement(() => "done", { ledger });
        // Checked, not called: nothing waits, so the queue overflows in this one turn.
        for (let i = 0; i < 60; i++) tool.check(invoice(i), { turn: `d${i}` });
        const kept = overflow === "wait" ? 20 : 10; // "wait" drops only past twice maxQueue
        await expect(ledger.flush()).resolves.toMatchObject({ appended: kept, written: kept, dropped: 60 - kept, pending: 0 });
        tool.check(invoice(60), { turn: "late" });
        await expect(ledger.close()).resolves.toMatchObject({ dropped: 60 - kept, written: kept + 1 });
      } finally {
        warn.mockRestore();
        metrics.disable();
      }
    });
  }
});
