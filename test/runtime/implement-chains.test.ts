// Issue 28: `implement(impl, { chains })` shares a turn's repair chain across processes for
// callers without the MCP adapter. Two guards with their own chain stores stand for two
// replicas; the shared counter is the embedded one here and PostgreSQL's in test/postgres/.
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemoryChainCounter } from "../../templates/runtime/call/shared-chains.ts";
import type { ChainCounter } from "../../templates/runtime/contract/chain-counter.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

const failing = JSON.stringify({ ...validInvoice, currency: "usd" });
const valid = JSON.stringify(validInvoice);

function replicas(chains: ChainCounter, ledger = new MemorySink()) {
  const bind = () => defineTool(invoiceSpec()).implement(() => "done", { ledger, chains });
  return { a: bind(), b: bind(), ledger };
}

function quietly<T>(run: () => Promise<T>): Promise<T> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  return run().finally(() => warn.mockRestore());
}

describe("implement(impl, { chains }) (issue 28)", () => {
  it("two replicas sharing a counter allow one repair per turn between them, and a success closes the chain", async () => {
    const { a, b } = replicas(new MemoryChainCounter());
    expect(await a.call(failing, { turn: "t" })).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
    // B has never seen this turn: alone it would allow a repair; the shared count says the budget is spent.
    expect(await b.call(failing, { turn: "t" })).toMatchObject({ status: "arguments_rejected", attempts: 2 });
    // Without the shared counter, B answers its own first failure.
    const lone = defineTool(invoiceSpec()).implement(() => "done", { ledger: new MemorySink() });
    expect(await lone.call(failing, { turn: "t" })).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
    // Correct arguments still run, and close the shared chain: the turn's next failure starts afresh.
    expect(await b.call(valid, { turn: "u" })).toMatchObject({ status: "ok" });
    expect(await a.call(failing, { turn: "u" })).toMatchObject({ status: "validation_failed", attempts: 1 });
    expect(await b.call(valid, { turn: "u" })).toMatchObject({ status: "ok" });
    expect(await b.call(failing, { turn: "u" })).toMatchObject({ status: "validation_failed", attempts: 1, repairsLeft: 1 });
  });

  it("keeps the turns of different tools and turns apart", async () => {
    const { a, b } = replicas(new MemoryChainCounter());
    expect(await a.call(failing, { turn: "x" })).toMatchObject({ status: "validation_failed" });
    expect(await b.call(failing, { turn: "y" })).toMatchObject({ status: "validation_failed", attempts: 1 });
  });

  it("a store that fails leaves the local bound, a warning per spell and a ledger mark per affected call; never an error for the call", async () => {
    const down: ChainCounter = {
      fail: () => Promise.reject(new Error("connection refused")),
      close: () => {
        throw new Error("connection refused");
      },
    };
    const { a, b, ledger } = replicas(down);
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((text: string) => void warnings.push(text));
    try {
      expect(await a.call(failing, { turn: "t" })).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
      // Each replica bounds alone: B allows its own repair, then refuses.
      expect(await b.call(failing, { turn: "t" })).toMatchObject({ status: "validation_failed", repairsLeft: 1 });
      expect(await b.call(failing, { turn: "t" })).toMatchObject({ status: "arguments_rejected" });
      expect(await a.call(valid, { turn: "v" })).toMatchObject({ status: "ok" });
    } finally {
      warn.mockRestore();
    }
    // One per spell of outage per bound tool (each stands for a process here), not one per call.
    expect(warnings.filter((text) => text.includes("shared chain store is unavailable"))).toHaveLength(2);
    await ledger.flush();
    const marks = ledger.entries.filter((entry) => entry.verdict === "chain_store_unavailable");
    // B's refusal is its own chain's, and is not counted in the store: no mark for it.
    expect(marks.map((mark) => [mark.turn, mark.tool, mark.attempts.length, mark.chainStore?.unavailable])).toEqual([
      ["t", "create_invoice", 0, "connection refused"],
      ["t", "create_invoice", 0, "connection refused"],
      ["v", "create_invoice", 0, "connection refused"],
    ]);
  });

  it("a store that answers nonsense counts as an outage, and a bad chains option is refused at implement", async () => {
    const { a, ledger } = replicas({ fail: () => ({ failures: "many" }) as never, close: () => undefined });
    await quietly(async () => expect(await a.call(failing, { turn: "t" })).toMatchObject({ status: "validation_failed" }));
    await ledger.flush();
    expect(ledger.entries.filter((entry) => entry.verdict === "chain_store_unavailable")).toHaveLength(1);
    expect(() => defineTool(invoiceSpec()).implement(() => "done", { chains: {} as ChainCounter })).toThrow(
      /create_invoice: the chains option must be a ChainCounter \(fail and close\)/,
    );
  });
});
