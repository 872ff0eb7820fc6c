// Issues 15.8-15.10, 15.20 and 16.1 in one process: caps, rotation, torn lines, a full disk,
// the bounded queue, slices that yield, fail-closed mode, and what the call path does not do.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { metrics, type Meter, type MeterProvider } from "@opentelemetry/api";
import { appendFile, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { readLedger, scanLedger } from "../../templates/runtime/ledger/read.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";
import { okEntry } from "../helpers/ledger-entry.ts";

async function dir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "toolguard-sink-"));
}

function quietly<T>(run: () => Promise<T>): Promise<T> {
  const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
  return run().finally(() => warn.mockRestore());
}

describe("size caps (15.8)", () => {
  it("a refused 1 MiB call writes a bounded ledger: each raw text cut, with its length and hash", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false });
    const tool = defineTool(invoiceSpec()).implement(() => "never", { ledger });
    const huge = JSON.stringify({ ...validInvoice, customer_ref: "x".repeat(1024 * 1024 - 200), currency: "euro" });
    for (let i = 0; i < 3; i++) await tool.call(huge, { turn: "t" });
    await ledger.close();
    const bytes = (await stat(path)).size;
    expect(bytes).toBeLessThan(200 * 1024); // was 6 MiB
    const last = (await readLedger(path)).at(-1)!;
    expect(last.verdict).toBe("rejected");
    const attempt = last.attempts[0]!;
    expect(attempt.raw).toHaveLength(16_384);
    expect(attempt.rawLength).toBe(huge.length);
    expect(attempt.rawSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("rotates past maxFileBytes, keeping maxFiles older files", async () => {
    const folder = await dir();
    const path = join(folder, "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxFileBytes: 4096, maxFiles: 2 });
    for (let i = 0; i < 200; i++) {
      ledger.append(okEntry(`e${i}`, "y".repeat(100)));
      if (i % 10 === 0) await ledger.flush();
    }
    const stats = await ledger.close();
    // The only writer owns the path; each rotation renames it to a closed file of this writer's, the newest two kept.
    const names = (await readdir(folder)).sort();
    expect(names).toEqual([
      expect.stringMatching(/^ledger\.\d+-\d+-[0-9a-f]{6}\.\d+\.jsonl$/),
      expect.stringMatching(/^ledger\.\d+-\d+-[0-9a-f]{6}\.\d+\.jsonl$/),
      "ledger.jsonl",
    ]);
    expect(stats.rotations).toBeGreaterThan(2);
    for (const name of names) expect((await stat(join(folder, name))).size).toBeLessThanOrEqual(4096);
    // Lines on disk + lines counted as rotated away = every entry appended.
    expect((await readLedger(path)).length + (stats.rotatedAway ?? 0)).toBe(200);
  });

  it("an entry over maxEntryBytes is written as a stub with its length and hash", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxEntryBytes: 1000 });
    ledger.append(okEntry("big", "z".repeat(5000)));
    await ledger.close();
    const [stub] = await readLedger(path);
    expect(stub).toMatchObject({ turn: "big", attempts: [], oversize: { length: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });

  it("reads a ledger as a stream: the first entry arrives before the file ends (a FIFO that never ends)", async () => {
    const fifo = join(await dir(), "ledger.fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = createWriteStream(fifo);
    writer.write(`${JSON.stringify(okEntry("first"))}\n`);
    const entries = scanLedger(fifo);
    const first = await entries.next();
    expect(first.value?.turn).toBe("first");
    writer.end(`${JSON.stringify(okEntry("second"))}\n`);
    expect((await entries.next()).value?.turn).toBe("second");
    expect((await entries.next()).done).toBe(true);
  });
});

/** Collects `toolguard.ledger.lost` counts with reason "rotated" until the returned function is called. */
function collectLost(lost: number[]): () => void {
  const provider = {
    getMeter: () =>
      ({
        createCounter: (name: string) => ({
          add: (n: number, attributes: Record<string, unknown> = {}) => name === "toolguard.ledger.lost" && attributes.reason === "rotated" && lost.push(n),
        }),
        createHistogram: () => ({ record: () => undefined }),
      }) as unknown as Meter,
  } as MeterProvider;
  metrics.setGlobalMeterProvider(provider);
  return () => metrics.disable();
}

describe("retention by age (issue 26)", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const lineAt = (turn: string, ms: number): string => `${JSON.stringify({ ...okEntry(turn), startedAt: new Date(ms).toISOString() })}\n`;
  async function ledgerWith(files: Record<string, { lines: number; ms: number }>): Promise<{ folder: string; path: string }> {
    const folder = await dir();
    const path = join(folder, "ledger.jsonl");
    for (const [suffix, { lines, ms }] of Object.entries(files)) {
      const file = `${path}${suffix}`;
      await writeFile(file, Array.from({ length: lines }, (_, i) => lineAt(`${suffix}-${i}`, ms)).join(""));
      await utimes(file, new Date(ms), new Date(ms));
    }
    return { folder, path };
  }
  const linesIn = async (file: string): Promise<number> => (await readFile(file, "utf8")).split("\n").length - 1;

  it("removes rotated files past maxAgeMs and rotates a live file whose first entry is past half of it, counting every line", async () => {
    const now = Date.now();
    const { folder, path } = await ledgerWith({
      ".2": { lines: 3, ms: now - 5 * DAY },
      ".1": { lines: 2, ms: now - 3 * DAY },
      "": { lines: 4, ms: now - 1.5 * DAY },
    });
    const ledger = new JsonlFileSink({ path, sync: false, maxAgeMs: 2 * DAY });
    ledger.append(okEntry("new"));
    const stats = await ledger.close();
    expect(stats).toMatchObject({ rotatedAway: 5, rotations: 1, written: 1 });
    const names = (await readdir(folder)).sort();
    expect(names).toEqual([expect.stringMatching(/^ledger\.\d+-\d+-[0-9a-f]{6}\.1\.jsonl$/), "ledger.jsonl"]);
    const closed = join(folder, names[0] as string);
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["-0", "-1", "-2", "-3", "new"]);
    expect(await linesIn(closed)).toBe(4);
    // Lines on disk + rotated away = every line there was.
    expect((await linesIn(path)) + (await linesIn(closed)) + (stats.rotatedAway ?? 0)).toBe(3 + 2 + 4 + 1);
  });

  it("keeps files younger than the limit, and by default removes nothing for its age", async () => {
    const now = Date.now();
    for (const options of [{ maxAgeMs: 2 * DAY }, {}]) {
      const old = options.maxAgeMs === undefined ? 400 * DAY : 0;
      const { folder, path } = await ledgerWith({
        ".2": { lines: 3, ms: now - 1.5 * DAY - old },
        ".1": { lines: 2, ms: now - DAY - old },
        "": { lines: 4, ms: now - 0.5 * DAY - old },
      });
      const ledger = new JsonlFileSink({ path, sync: false, ...options });
      ledger.append(okEntry("new"));
      await expect(ledger.close()).resolves.toMatchObject({ rotatedAway: 0, rotations: 0 });
      expect((await readdir(folder)).sort()).toEqual(["ledger.jsonl", "ledger.jsonl.1", "ledger.jsonl.2"]);
      expect(await linesIn(path)).toBe(5);
    }
  });

  it("counts the lines it removes in telemetry, as size retention does", async () => {
    const now = Date.now();
    const { path } = await ledgerWith({ ".1": { lines: 7, ms: now - 3 * DAY }, "": { lines: 1, ms: now } });
    const lost: number[] = [];
    const reader = collectLost(lost);
    try {
      const ledger = new JsonlFileSink({ path, sync: false, maxAgeMs: 2 * DAY });
      ledger.append(okEntry("new"));
      await ledger.close();
    } finally {
      reader();
    }
    expect(lost).toEqual([7]);
  });

  it("refuses a maxAgeMs that is not a positive number", () => {
    expect(() => new JsonlFileSink({ path: "/tmp/never", maxAgeMs: 0 })).toThrow(/maxAgeMs must be a positive number, got 0/);
  });
});

describe("torn lines (15.9)", () => {
  it("a live writer does not glue its entry to a dead writer's fragment", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false });
    ledger.append(okEntry("before"));
    await ledger.flush(); // the file is open now
    await appendFile(path, '{"v":1,"chain":"dead","tool":"t","tu'); // another process died mid-line
    ledger.append(okEntry("after"));
    await ledger.close();
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toEqual([JSON.stringify(okEntry("before")), '{"v":1,"chain":"dead","tool":"t","tu', JSON.stringify(okEntry("after")), ""]);
  });

  it("the reader recovers an entry glued to a fragment, and counts the fragment", async () => {
    const path = join(await dir(), "ledger.jsonl");
    await writeFile(
      path,
      `${JSON.stringify(okEntry("a"))}\n{"v":1,"chain":"x","tool":"t","attempts":[{"raw":"{\\"v\\":1${JSON.stringify(okEntry("b"))}\n{"v":1,"tu\n`,
    );
    const scan = { entries: 0, torn: 0 };
    const fragments: string[] = [];
    const turns: string[] = [];
    for await (const found of scanLedger(path, scan, (fragment) => fragments.push(fragment))) turns.push(found.turn);
    expect(turns).toEqual(["a", "b"]);
    expect(scan).toEqual({ entries: 2, torn: 2 });
    expect(fragments).toHaveLength(2);
  });

  it("after a full disk (ENOSPC), keeps, retries and then writes every entry, with a warning", async () => {
    const folder = await dir();
    const path = join(folder, "ledger.jsonl");
    await symlink("/dev/full", path);
    const onError = vi.fn();
    const ledger = new JsonlFileSink({ path, onError });
    await quietly(async () => {
      for (let i = 0; i < 5; i++) ledger.append(okEntry(`full-${i}`));
      await expect(ledger.flush()).rejects.toThrow(/5 entries could not be written .*ENOSPC|ENOSPC/);
      expect(onError).toHaveBeenCalled();
      expect(ledger.stats()).toMatchObject({ appended: 5, written: 0, pending: 5 });
      // Space returns (the path now names a real file).
      await rm(path);
      ledger.append(okEntry("after"));
      await ledger.close();
    });
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["full-0", "full-1", "full-2", "full-3", "full-4", "after"]);
    expect(ledger.stats()).toMatchObject({ appended: 6, written: 6, dropped: 0, pending: 0 });
  });
});

describe("the bounded queue (16.1)", () => {
  it("overflow 'drop': entries past maxQueue are counted, warned about and reported by flush", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 100, overflow: "drop" });
    const onWarn = vi.fn();
    await quietly(async () => {
      process.emitWarning = onWarn as typeof process.emitWarning;
      for (let i = 0; i < 1000; i++) ledger.append(okEntry(`d${i}`));
      // Drops are counted and reported, never thrown: flush resolves with the counters, twice over.
      await expect(ledger.flush()).resolves.toMatchObject({ appended: 100, written: 100, dropped: 900, pending: 0 });
      await expect(ledger.flush()).resolves.toMatchObject({ dropped: 900 });
    });
    expect(ledger.stats()).toMatchObject({ appended: 100, written: 100, dropped: 900 });
    expect(onWarn).toHaveBeenCalledTimes(1); // one warning per run of drops, not 900
    expect(await readLedger(path)).toHaveLength(100);
    await ledger.close();
  });

  it("sustained drops between written slices raise one warning, not one per slice (a stall under overload)", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const onError = vi.fn();
    const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 10, overflow: "drop", onError });
    const onWarn = vi.fn();
    const started = performance.now();
    await quietly(async () => {
      process.emitWarning = onWarn as typeof process.emitWarning;
      // 50 runs of drops, each followed by a written slice: every drop counted, a warning at most every 10 s.
      for (let round = 0; round < 50; round++) {
        for (let i = 0; i < 30; i++) ledger.append(okEntry(`r${round}-${i}`));
        await ledger.flush();
      }
    });
    const elapsed = performance.now() - started;
    expect(ledger.stats()).toMatchObject({ appended: 500, written: 500, dropped: 1000 });
    // One warning, or one more per 10 s the loop took on a very slow machine (never a bound on the time itself).
    const allowed = 1 + Math.floor(elapsed / 10_000);
    expect(onWarn.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(onWarn.mock.calls.length).toBeLessThanOrEqual(allowed);
    expect(onError.mock.calls.length).toBe(onWarn.mock.calls.length);
    await ledger.close();
  });

  it("overflow 'wait': callers are held back, nothing is dropped, the queue stays bounded", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 500 });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    // 400 callers, each making 5 calls one after the other, as fast as the guard answers.
    await Promise.all(
      Array.from({ length: 400 }, async (_, caller) => {
        for (let i = 0; i < 5; i++) await tool.call(JSON.stringify({ ...validInvoice, amount: i + 1 }), { turn: `${caller}-${i}` });
      }),
    );
    await ledger.close();
    expect(ledger.stats()).toMatchObject({ appended: 2000, written: 2000, dropped: 0 });
    expect(ledger.stats().peakQueued).toBeLessThanOrEqual(500 + 400);
    expect(await readLedger(path)).toHaveLength(2000);
  });

  it("overflow 'wait' holds at most maxWaiting calls; a caller past the bound gets its outcome at once, every call accounted for", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 100, maxWaiting: 50 });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    let held = 0;
    await quietly(async () => {
      // An open loop: 2,000 calls in one turn of the event loop, none awaiting the one before.
      const outcomes = Array.from({ length: 2000 }, (_, i) => tool.call(JSON.stringify({ ...validInvoice, amount: i + 1 }), { turn: `w${i}` }));
      // Outcomes that resolve within one macrotask were not held back.
      const settled = new Set<number>();
      outcomes.forEach((outcome, i) => void outcome.then(() => settled.add(i)));
      await new Promise((done) => setTimeout(done, 0));
      held = outcomes.length - settled.size;
      const statuses = await Promise.all(outcomes.map((outcome) => outcome.then((o) => o.status)));
      expect(new Set(statuses)).toEqual(new Set(["ok"]));
    });
    const stats = await ledger.close();
    expect(stats.peakWaiting).toBeLessThanOrEqual(50);
    expect(stats.peakWaiting).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(50);
    expect(stats.notHeld).toBeGreaterThan(0);
    expect(stats.peakQueued).toBeLessThanOrEqual(200);
    expect(stats.appended + stats.dropped).toBe(2000);
    expect(await readLedger(path)).toHaveLength(stats.appended);
  });

  it("serialises a backlog in slices and lets the event loop run between them", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 100_000 });
    for (let i = 0; i < 20_000; i++) ledger.append(okEntry(`s${i}`, "r".repeat(200)));
    const seen: number[] = [];
    const tick = (): void => {
      seen.push(ledger.stats().written);
      if (ledger.stats().written < 20_000) setImmediate(tick);
    };
    setImmediate(tick);
    await ledger.close();
    // The event loop ran while the backlog was written: several different progress points.
    expect(new Set(seen.filter((written) => written < 20_000)).size).toBeGreaterThan(5);
    expect(ledger.stats().written).toBe(20_000);
  });
});

describe("flush and close report drops, never throw them (issue 26)", () => {
  it("close resolves with the counters after drops, and the drops reach telemetry", async () => {
    const lost: [number, Record<string, unknown>][] = [];
    const provider = {
      getMeter: () =>
        ({
          createCounter: (name: string) => ({
            add: (n: number, attributes: Record<string, unknown> = {}) => name === "toolguard.ledger.lost" && lost.push([n, attributes]),
          }),
          createHistogram: () => ({ record: () => undefined }),
        }) as unknown as Meter,
    } as MeterProvider;
    metrics.setGlobalMeterProvider(provider);
    try {
      const path = join(await dir(), "ledger.jsonl");
      const ledger = new JsonlFileSink({ path, sync: false, maxQueue: 10, overflow: "drop" });
      await quietly(async () => {
        for (let i = 0; i < 25; i++) ledger.append(okEntry(`d${i}`));
        await expect(ledger.close()).resolves.toMatchObject({ appended: 10, written: 10, dropped: 15, pending: 0 });
        // After close: dropped and counted, and a second close still resolves.
        ledger.append(okEntry("late"));
        await expect(ledger.close()).resolves.toMatchObject({ dropped: 16 });
      });
      expect(lost.reduce((sum, [n]) => sum + n, 0)).toBe(16);
      expect(lost.every(([, attributes]) => attributes.reason === "dropped")).toBe(true);
    } finally {
      metrics.disable();
    }
  });
});

describe("failures are written through (issue 26)", () => {
  const failing = JSON.stringify({ ...validInvoice, currency: "usd" });

  it("every entry of a chain that holds a failure is in the file when check() returns; a clean call's waits for its slice", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    const lines = (): LedgerEntry[] =>
      readFileSync(path, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as LedgerEntry);
    expect(tool.check(failing, { turn: "f" }).ok).toBe(false);
    // No await, no flush: read back synchronously, in the same turn of the event loop.
    expect(lines().map((e) => [e.turn, e.verdict])).toEqual([["f", "open"]]);
    expect(tool.check(JSON.stringify(validInvoice), { turn: "f" }).ok).toBe(true);
    expect(lines().map((e) => [e.turn, e.verdict])).toEqual([
      ["f", "open"],
      ["f", "repaired"],
    ]);
    expect(tool.check(JSON.stringify(validInvoice), { turn: "clean" }).ok).toBe(true);
    expect(lines()).toHaveLength(2); // batched: written after this turn
    await expect(ledger.close()).resolves.toMatchObject({ appended: 3, written: 3, pending: 0 });
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["f", "f", "clean"]);
  });

  it("call(): a failure's envelope, a refusal's and a repaired outcome resolve once their entry is on disk, without writing on the event loop", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    const verdicts = (): string[] => {
      try {
        return readFileSync(path, "utf8")
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as LedgerEntry).verdict);
      } catch {
        return [];
      }
    };
    const failed = tool.call(failing, { turn: "f" });
    // Not written in the call's own turn (no fdatasync holding the event loop)...
    expect(verdicts()).toEqual([]);
    // ...but before the envelope is handed back: read right after the await, no flush.
    expect((await failed).status).toBe("validation_failed");
    expect(verdicts()).toEqual(["open"]);
    expect((await tool.call(JSON.stringify(validInvoice), { turn: "f" })).status).toBe("ok");
    expect(verdicts()).toEqual(["open", "repaired"]);
    for (let i = 0; i < 2; i++) await tool.call("{", { turn: "r" });
    const refused = await tool.call("{", { turn: "r" });
    expect(refused.status).toBe("arguments_rejected");
    expect(verdicts()).toEqual(["open", "repaired", "open", "rejected", "rejected"]);
    await ledger.close();
  });

  it("call() with a repair callback: each envelope the callback sees has its entry on disk already", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    const onDisk = (): string[] => {
      try {
        return readFileSync(path, "utf8")
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as LedgerEntry).verdict);
      } catch {
        return [];
      }
    };
    const seen: string[][] = [];
    const outcome = await tool.call(failing, {
      turn: "cb",
      // Read synchronously inside the callback: no await, no flush between the envelope and the read.
      repair: () => {
        seen.push(onDisk());
        return JSON.stringify(validInvoice);
      },
    });
    expect(outcome.status).toBe("ok");
    expect(seen).toEqual([["open"]]);
    expect(onDisk()).toEqual(["open", "repaired"]);
    await ledger.close();
  });

  it("call() with asynchronous resolvers: concurrent failures each have their entry on disk when their envelope arrives", async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const spec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
    // Not found, all answered at once, once every call is waiting: each failure is recorded after
    // an await, and their continuations run interleaved in one drain of the microtask queue.
    let open = (): void => undefined;
    const gate = new Promise<void>((done) => {
      open = done;
    });
    const customer = async (): Promise<never[]> => {
      await gate;
      return [];
    };
    const tool = defineTool(spec).implement(() => "ok", { ledger, resolvers: { customer } } as never);
    const onDisk = (): Set<string> => {
      try {
        return new Set(
          readFileSync(path, "utf8")
            .trimEnd()
            .split("\n")
            .map((line) => (JSON.parse(line) as LedgerEntry).turn),
        );
      } catch {
        return new Set();
      }
    };
    const missing: string[] = [];
    setImmediate(() => open());
    await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const turn = `r${index}`;
        const outcome = await tool.call(JSON.stringify({ ...validInvoice, customer_ref: `Nobody ${index}` }), { turn });
        expect(outcome.status).not.toBe("ok");
        if (!onDisk().has(turn)) missing.push(turn);
      }),
    );
    expect(missing).toEqual([]);
    await ledger.close();
  });

  it('failures: "batched" queues them with the clean entries', async () => {
    const path = join(await dir(), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, failures: "batched" });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    tool.check(failing, { turn: "f" });
    // Not written through: nothing on disk when check() returns (read synchronously, before the sink's next slice).
    expect(() => readFileSync(path, "utf8")).toThrow(/ENOENT/);
    await ledger.close();
    expect((await readLedger(path)).map((e) => e.verdict)).toEqual(["open"]);
  });

  it("a failure that cannot be written through (full disk) is queued, reported and retried, never thrown into the call", async () => {
    const folder = await dir();
    const path = join(folder, "ledger.jsonl");
    await symlink("/dev/full", path);
    const onError = vi.fn();
    const ledger = new JsonlFileSink({ path, onError });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    await quietly(async () => {
      expect(tool.check(failing, { turn: "f" }).ok).toBe(false);
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(/written through.*ENOSPC|ENOSPC/) }));
      expect(ledger.stats()).toMatchObject({ appended: 1, written: 0 });
      await rm(path); // space returns
      await ledger.close();
    });
    expect((await readLedger(path)).map((e) => [e.turn, e.verdict])).toEqual([["f", "open"]]);
  });
});

describe("durable and fail-closed modes (15.10, 15.20)", () => {
  it("fail-closed: with an unwritable ledger the implementation is not called, and the outcome says why", async () => {
    const blocker = join(await dir(), "file");
    await writeFile(blocker, "not a directory");
    const implementation = vi.fn(() => "ran");
    await quietly(async () => {
      const closed = defineTool(invoiceSpec()).implement(implementation, { ledger: new JsonlFileSink({ path: join(blocker, "l.jsonl") }), failClosed: true });
      const first = await closed.call(JSON.stringify(validInvoice), { turn: "a" });
      const second = await closed.call(JSON.stringify(validInvoice), { turn: "b" });
      expect([first.status, second.status]).toEqual(["ledger_unavailable", "ledger_unavailable"]);
      expect(implementation).not.toHaveBeenCalled();
      // The default stays open: the call runs and the failure is reported.
      const open = defineTool(invoiceSpec()).implement(implementation, { ledger: new JsonlFileSink({ path: join(blocker, "l.jsonl") }) });
      expect((await open.call(JSON.stringify(validInvoice), { turn: "c" })).status).toBe("ok");
      expect(implementation).toHaveBeenCalledTimes(1);
    });
  });

  it("fail-closed with a writable ledger runs the implementation as usual", async () => {
    const ledger = new JsonlFileSink({ path: join(await dir(), "l.jsonl"), sync: false });
    const tool = defineTool(invoiceSpec()).implement(() => "ran", { ledger, failClosed: true });
    expect(await tool.call(JSON.stringify(validInvoice), { turn: "a" })).toMatchObject({ status: "ok", result: "ran" });
    await ledger.close();
  });

  it("durable: the outcome resolves only once its entry is on disk, and rejects if it cannot be", async () => {
    const path = join(await dir(), "l.jsonl");
    const ledger = new JsonlFileSink({ path });
    const tool = defineTool(invoiceSpec()).implement(() => "ran", { ledger, durable: true });
    await tool.call(JSON.stringify(validInvoice), { turn: "a" });
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["a"]); // no flush needed
    const full = join(await dir(), "full.jsonl");
    await symlink("/dev/full", full);
    const fullSink = new JsonlFileSink({ path: full });
    const failing = defineTool(invoiceSpec()).implement(() => "ran", { ledger: fullSink, durable: true });
    await quietly(async () => {
      await expect(failing.call(JSON.stringify(validInvoice), { turn: "b" })).rejects.toThrow(/could not be written.*ENOSPC/);
      // Its entry can never be written: close reports that, and still releases the file.
      await expect(fullSink.close()).rejects.toThrow(/not yet written/);
    });
    await ledger.close();
  });
});

describe("the ledger line (16.1)", () => {
  it("the call hands over references only: no id minted, nothing serialised until the entry is read", async () => {
    const appended: LedgerEntry[] = [];
    const ledger = { append: (entry: LedgerEntry) => void appended.push(entry), flush: async () => undefined, close: async () => undefined };
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    await tool.call(JSON.stringify(validInvoice), { turn: "a" });
    await tool.call(JSON.stringify(validInvoice), { turn: "b" });
    // Ids come from a per-process counter: read in reverse, the second call's entry gets the
    // smaller one only if neither call minted its id.
    const second = appended[1]!.chain;
    const first = appended[0]!.chain;
    expect(second < first).toBe(true);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("writes arguments only when coercions changed them, and the key only when the implementation read it", async () => {
    const ledger = new MemorySink();
    const plain = defineTool(invoiceSpec()).implement(() => "ok", { ledger });
    const reading = defineTool(invoiceSpec()).implement((_args, context) => context.idempotencyKey, { ledger });
    const asIs = await plain.call(JSON.stringify(validInvoice), { turn: "a" });
    await reading.call(JSON.stringify({ ...validInvoice, amount: "1299" }), { turn: "b" });
    const [first, second] = ledger.entries;
    expect(first).not.toHaveProperty("arguments");
    expect(first).not.toHaveProperty("idempotencyKey");
    expect(second?.arguments).toEqual(validInvoice);
    expect(asIs.status === "ok" && asIs.idempotencyKey).toBe(second?.idempotencyKey); // same intent, same key
  });
});
