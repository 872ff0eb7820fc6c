// The line's fixed fields are written as bytes (issue 26): a minted chain id from its prefix and
// counter, the start time from a per-second prefix and the milliseconds. The text must be exactly
// what the entry's own `chain` and `startedAt` (and so `JSON.stringify(entry)`) say, for every
// counter and every time, seconds, years and the far future included.
import { describe, expect, it, vi } from "vitest";
import { chainIdOf } from "../../templates/runtime/ledger/chain-id.ts";
import { ChainRecord } from "../../templates/runtime/ledger/chain-record.ts";
import { type EntryHead, writeEntry } from "../../templates/runtime/ledger/entry-text.ts";
import { entryJson, writeLine } from "../../templates/runtime/ledger/line.ts";
import { LineWriter } from "../../templates/runtime/ledger/line-writer.ts";

const ATTEMPT = { raw: '{"a":1}', finishReason: undefined, errors: [], coercions: [] };

function text(out: LineWriter): string {
  return Buffer.from(out.bytes()).toString("latin1");
}

describe("the line's fixed fields, written as bytes", () => {
  it("writes zero-padded decimal and hex digits", () => {
    const out = new LineWriter(1024);
    for (const [value, width] of [
      [0, 3],
      [7, 3],
      [42, 3],
      [999, 3],
      [0, 6],
      [0xabcdef, 6],
      [0x10, 6],
      [0xffffff, 6],
      [2 ** 32 - 1, 8],
    ] as const) {
      out.reset();
      out.decimal(value, width);
      out.byte(0x7c);
      out.hex(value, width);
      expect(text(out)).toBe(`${String(value).padStart(width, "0").slice(-width)}|${value.toString(16).padStart(width, "0").slice(-width)}`);
    }
  });

  it("writes a minted id as chainIdOf gives it, for counters in either half", () => {
    const out = new LineWriter(1024);
    for (const counter of [0, 1, 0xfff, 0xffffff, 0x1000000, 0x123456789ab, 2 ** 48 - 1]) {
      const head: EntryHead = {
        chain: "unused",
        mintedPrefix: "0a1b2c3d-4e5f-4a6b-8c7d-",
        mintedCounter: counter,
        tool: "t",
        turn: "u",
        startedAtMs: 0,
        verdict: "ok",
        repairs: 0,
        idempotencyKey: undefined,
      };
      for (const resolved of [false, true]) {
        out.reset();
        writeEntry(out, head, [ATTEMPT], { omitted: 0, argumentMembers: "", resolved });
        const line = JSON.parse(text(out)) as { v: number; chain: string };
        expect(line.chain).toBe(chainIdOf(head.mintedPrefix, counter));
        expect(line.v).toBe(resolved ? 2 : 1);
      }
    }
  });

  it("writes the id and the time the entry then reports, at any time", () => {
    const times = [
      0, 1, 999, 1000, 1_764_600_000_123, 1_764_600_000_999, 1_764_600_001_000, 1_764_600_001_005, 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001,
    ];
    for (let i = 0; i < 200; i++) times.push(Math.floor(((i * 7919) % 1000) + 1_700_000_000_000 + i * 377));
    const seen = new Set<string>();
    for (const ms of times) {
      const entry = new ChainRecord(undefined, "t", "u", ms, "ok", [ATTEMPT], undefined);
      const line = JSON.parse(entryJson(entry, 1 << 20)) as { chain: string; startedAt: string };
      expect(line.startedAt).toBe(new Date(ms).toISOString());
      // The id was minted as the line was written: the entry reports the same one.
      expect(entry.chain).toBe(line.chain);
      expect(entry.startedAt).toBe(line.startedAt);
      expect(seen.has(line.chain)).toBe(false);
      seen.add(line.chain);
    }
  });

  it("writes an id read before the line as it was read", () => {
    const entry = new ChainRecord(undefined, "t", "u", 5, "ok", [ATTEMPT], undefined);
    const id = entry.chain;
    expect((JSON.parse(entryJson(entry, 1 << 20)) as { chain: string }).chain).toBe(id);
    const known = new ChainRecord({ id: "f".repeat(32) }, "t", "u", 5, "ok", [ATTEMPT], undefined);
    expect((JSON.parse(entryJson(known, 1 << 20)) as { chain: string }).chain).toBe("f".repeat(32));
  });
  it("reads the clock once a slice for entries whose call did not read their time", () => {
    const now = vi.spyOn(Date, "now");
    try {
      now.mockReturnValue(1_764_600_000_123);
      const out = new LineWriter(1 << 20);
      const entries = Array.from({ length: 100 }, (_, i) => new ChainRecord(undefined, "t", `u${i}`, undefined, "ok", [ATTEMPT], undefined));
      for (const entry of entries) writeLine(out, entry, 1 << 20);
      expect(now).toHaveBeenCalledTimes(1);
      // Every line and every entry says the slice's time.
      const lines = Buffer.from(out.bytes()).toString("utf8").trim().split("\n");
      for (const [i, line] of lines.entries()) {
        expect((JSON.parse(line) as { startedAt: string }).startedAt).toBe("2025-12-01T14:40:00.123Z");
        expect(entries[i]?.startedAt).toBe("2025-12-01T14:40:00.123Z");
      }
      // A new slice reads the clock again; an entry whose time was read keeps it.
      now.mockReturnValue(1_764_600_000_999);
      const timed = new ChainRecord(undefined, "t", "timed", 5, "ok", [ATTEMPT], undefined);
      out.reset();
      writeLine(out, timed, 1 << 20);
      expect(now).toHaveBeenCalledTimes(1);
      writeLine(out, new ChainRecord(undefined, "t", "late", undefined, "ok", [ATTEMPT], undefined), 1 << 20);
      expect(now).toHaveBeenCalledTimes(2);
      const [first, second] = Buffer.from(out.bytes()).toString("utf8").trim().split("\n") as [string, string];
      expect((JSON.parse(first) as { startedAt: string }).startedAt).toBe(new Date(5).toISOString());
      expect((JSON.parse(second) as { startedAt: string }).startedAt).toBe("2025-12-01T14:40:00.999Z");
    } finally {
      now.mockRestore();
    }
  });
});
