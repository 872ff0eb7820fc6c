// The durable default sink: append-only lines, torn tails tolerated, nothing lost, failures loud.
import { mkdtemp, readFile, writeFile, appendFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink, readLedger } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

function entry(turn: string): LedgerEntry {
  return { v: 1, chain: `c-${turn}`, tool: "t", turn, startedAt: "2026-01-01T00:00:00.000Z", verdict: "ok", attempts: [], repairs: 0 };
}

async function tempPath(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "toolguard-ledger-")), "nested", "ledger.jsonl");
}

describe("JsonlFileSink", () => {
  it("records 1,000 concurrent calls as exactly 1,000 well-formed lines", async () => {
    const path = await tempPath();
    const ledger = new JsonlFileSink({ path });
    // The key is written when the implementation reads it (computing it costs the ledger nothing then).
    const tool = defineTool(invoiceSpec()).implement(async (_args, context) => context.idempotencyKey, { ledger });
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => tool.call(JSON.stringify({ ...validInvoice, amount: i + 1 }), { turn: `turn-${i}` })),
    );
    expect(outcomes.every((outcome) => outcome.status === "ok")).toBe(true);
    await ledger.close();
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(1000);
    const entries = lines.map((line) => JSON.parse(line) as LedgerEntry);
    expect(new Set(entries.map((e) => e.turn)).size).toBe(1000);
    expect(entries.every((e) => e.verdict === "ok" && typeof e.idempotencyKey === "string")).toBe(true);
  });

  it("tolerates a torn last line: the reader skips it and the next writer starts a fresh line", async () => {
    const path = await tempPath();
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, `${JSON.stringify(entry("a"))}\n${JSON.stringify(entry("b")).slice(0, 25)}`);
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["a"]);
    const ledger = new JsonlFileSink({ path });
    ledger.append(entry("c"));
    await ledger.close();
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["a", "c"]);
    await appendFile(path, '{"v":1,"tool":"t","tu');
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["a", "c"]);
  });

  it("reads a missing ledger as empty", async () => {
    expect(await readLedger(join(tmpdir(), "no-such-dir-toolguard", "ledger.jsonl"))).toEqual([]);
  });

  it("reports a failing sink through flush, onError and a process warning, never silently", async () => {
    const blocker = join(await mkdtemp(join(tmpdir(), "toolguard-ledger-")), "file");
    await writeFile(blocker, "not a directory");
    const onError = vi.fn();
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const ledger = new JsonlFileSink({ path: join(blocker, "ledger.jsonl"), onError });
      ledger.append(entry("a"));
      ledger.append(entry("b"));
      await expect(ledger.flush()).rejects.toThrow(/2 entries could not be written/);
      expect(onError).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/toolguard ledger/), expect.objectContaining({ type: "ToolguardLedgerWarning" }));
      // Nothing is given up: the entries stay queued, and the next flush retries and reports again.
      await expect(ledger.flush()).rejects.toThrow(/2 entries could not be written/);
      expect(ledger.stats()).toMatchObject({ appended: 2, written: 0, dropped: 0, pending: 2 });
    } finally {
      warn.mockRestore();
    }
  });

  it("creates its directory lazily, on the first write", async () => {
    const path = await tempPath();
    const ledger = new JsonlFileSink({ path });
    await expect(readFile(path)).rejects.toThrow();
    ledger.append(entry("a"));
    await ledger.flush();
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["a"]);
    await ledger.close();
  });

  it("never lets a sink that throws on append turn a call into an exception, and warns", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const ledger = {
        append: () => {
          throw new Error("disk on fire");
        },
        flush: async () => {},
        close: async () => {},
      };
      const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
      expect((await tool.call(JSON.stringify(validInvoice), { turn: "t" })).status).toBe("ok");
      expect((await tool.call("{", { turn: "u" })).status).toBe("validation_failed");
      expect((await tool.call("{", { turn: "u" })).status).toBe("arguments_rejected");
      expect((await tool.call("{", { turn: "u" })).status).toBe("arguments_rejected");
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/disk on fire/), expect.objectContaining({ type: "ToolguardLedgerWarning" }));
    } finally {
      warn.mockRestore();
    }
  });
});

describe("MemorySink", () => {
  it("shows each entry as the file sink writes it, copied when read rather than on the call's path", async () => {
    const memory = new MemorySink();
    const path = await tempPath();
    const file = new JsonlFileSink({ path, sync: false });
    const both = {
      append: (e: LedgerEntry) => {
        memory.append(e);
        return file.append(e);
      },
      flush: () => file.flush(),
      close: () => file.close(),
    };
    const tool = defineTool(invoiceSpec()).implement(
      (args) => {
        (args as unknown as { amount: number }).amount = -1; // the implementation's mutation reaches neither sink
        return "done";
      },
      { ledger: both },
    );
    // A coerced amount: `arguments` is written only when it differs from the raw text.
    await tool.call(JSON.stringify({ ...validInvoice, amount: String(validInvoice.amount) }), { turn: "t1" });
    await file.close();
    expect(memory.size).toBe(1);
    expect(memory.entries).toEqual(await readLedger(path));
    expect(memory.entries[0]?.arguments).toEqual(validInvoice);
    expect(memory.last()).toBe(memory.entries[0]);
    memory.clear();
    expect([memory.size, memory.entries.length]).toEqual([0, 0]);
  });
});
