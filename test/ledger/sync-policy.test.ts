// Issue 26, the durability policy by what the entry is: when the JSONL sink's lines reach the
// disk. Node's own fdatasync calls are counted (wrapped in node:fs, and the ESM bindings synced
// to it), so the real sink is watched writing real files; nothing of the sink is stubbed.
import fs from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { JsonlFileSink, type JsonlFileSinkOptions } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { okEntry } from "../helpers/ledger-entry.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

const original = { fdatasync: fs.fdatasync, fdatasyncSync: fs.fdatasyncSync };
/** Every fdatasync since the test began, by kind; `failNext` makes the next asynchronous one fail with EIO. */
const syncs = { async: 0, sync: 0, failNext: false };

beforeEach(() => {
  syncs.async = 0;
  syncs.sync = 0;
  syncs.failNext = false;
  fs.fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    syncs.async++;
    if (syncs.failNext) {
      syncs.failNext = false;
      setImmediate(() => callback(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })));
      return;
    }
    original.fdatasync(fd, callback);
  }) as typeof fs.fdatasync;
  fs.fdatasyncSync = ((fd: number) => {
    syncs.sync++;
    original.fdatasyncSync(fd);
  }) as typeof fs.fdatasyncSync;
  syncBuiltinESMExports();
});

afterEach(() => {
  fs.fdatasync = original.fdatasync;
  fs.fdatasyncSync = original.fdatasyncSync;
  syncBuiltinESMExports();
});

async function sinkAt(options: JsonlFileSinkOptions = {}): Promise<{ sink: JsonlFileSink; path: string }> {
  const path = join(await mkdtemp(join(tmpdir(), "toolguard-sync-")), "ledger.jsonl");
  return { sink: new JsonlFileSink({ path, ...options }), path };
}

/** The sink's own drain (`drained()`: `flush()` without its sync): every queued entry in the file. */
async function drained(sink: JsonlFileSink): Promise<void> {
  await sink.drained();
  expect(sink.stats().pending).toBe(0);
}

async function lines(path: string): Promise<number> {
  return (await readFile(path, "utf8")).split("\n").filter(Boolean).length;
}

describe('clean calls\' lines (the default, sync: "interval")', () => {
  it("are written at once and synced within the interval, one fdatasync for many slices", async () => {
    const { sink, path } = await sinkAt({ syncIntervalMs: 50 });
    for (let slice = 0; slice < 3; slice++) {
      for (let index = 0; index < 100; index++) sink.append(okEntry(`s${slice}-${index}`));
      await drained(sink);
    }
    // On disk for every reader (and for a kill -9) before any sync:
    expect(await lines(path)).toBe(300);
    expect(syncs.async + syncs.sync).toBe(0);
    await vi.waitFor(() => expect(syncs.async).toBe(1), { timeout: 60_000, interval: 5 });
    await sink.close();
    expect(syncs.async).toBe(1); // close found nothing left to sync
  });

  it("flush() syncs what is written and not yet synced; sync: true syncs each slice; sync: false never", async () => {
    const interval = await sinkAt({ syncIntervalMs: 3_600_000 });
    interval.sink.append(okEntry("a"));
    await interval.sink.flush();
    expect(syncs.async).toBe(1);
    await interval.sink.close();

    syncs.async = 0;
    const every = await sinkAt({ sync: true });
    for (let slice = 0; slice < 3; slice++) {
      every.sink.append(okEntry(`e${slice}`));
      await drained(every.sink);
    }
    expect(syncs.async).toBe(3);
    await every.sink.close();

    syncs.async = 0;
    const never = await sinkAt({ sync: false, syncIntervalMs: 1 });
    never.sink.append(okEntry("n"));
    await never.sink.close();
    expect(syncs.async + syncs.sync).toBe(0);
    expect(await lines(never.path)).toBe(1);
  });
});

describe("what a caller waits on is synced before it resolves", () => {
  it("written() (durable calls, a failure's outcome in call) syncs the slice that holds the entry", async () => {
    const { sink } = await sinkAt({ syncIntervalMs: 3_600_000 });
    sink.append(okEntry("clean"));
    await drained(sink);
    expect(syncs.async).toBe(0);
    sink.append(okEntry("durable"));
    await sink.written();
    expect(syncs.async).toBe(1);
    // Written before the wait was asked for: the wait syncs it all the same.
    sink.append(okEntry("late"));
    await drained(sink);
    const before = syncs.async;
    await sink.written();
    expect(syncs.async).toBe(before + 1);
    await sink.close();
  });

  it("a durable call's outcome comes back after its entry's sync, a clean call's without one", async () => {
    const { sink } = await sinkAt({ syncIntervalMs: 3_600_000 });
    const tool = defineTool(invoiceSpec());
    const clean = tool.implement(() => "ok", { ledger: sink });
    const durable = tool.implement(() => "ok", { ledger: sink, durable: true });
    expect((await clean.call(JSON.stringify(validInvoice), { turn: "c" })).status).toBe("ok");
    await drained(sink);
    expect(syncs.async).toBe(0);
    expect((await durable.call(JSON.stringify(validInvoice), { turn: "d" })).status).toBe("ok");
    expect(syncs.async).toBe(1);
    await sink.close();
  });

  it("a failure's entry: written through and synced in check(), its slice synced in call() and under failures: batched", async () => {
    const failing = JSON.stringify({ ...validInvoice, currency: "euro" });
    const through = await sinkAt({ syncIntervalMs: 3_600_000 });
    const tool = defineTool(invoiceSpec()).implement(() => "ok", { ledger: through.sink });
    expect(tool.check(failing, { turn: "f" }).ok).toBe(false);
    expect(syncs.sync).toBe(1);
    expect(await lines(through.path)).toBe(1);
    expect((await tool.call(failing, { turn: "g" })).status).toBe("validation_failed");
    expect(syncs.async).toBe(1);
    await through.sink.close();

    syncs.async = 0;
    syncs.sync = 0;
    const batched = await sinkAt({ failures: "batched", syncIntervalMs: 3_600_000 });
    const queued = defineTool(invoiceSpec()).implement(() => "ok", { ledger: batched.sink });
    expect(queued.check(failing, { turn: "f" }).ok).toBe(false);
    expect(syncs.sync).toBe(0);
    await drained(batched.sink);
    expect(syncs.async).toBe(1);
    await batched.sink.close();
  });
});

describe("rotation and failures", () => {
  it("a file rotated away with unsynced lines is synced as it is closed", async () => {
    const { sink } = await sinkAt({ syncIntervalMs: 3_600_000, maxFileBytes: 400, maxFiles: 5 });
    sink.append(okEntry("first", "x".repeat(200)));
    await drained(sink);
    expect(syncs.async).toBe(0);
    sink.append(okEntry("second", "y".repeat(200))); // past 400 bytes: the first file is rotated away
    await drained(sink);
    expect(sink.stats().rotations).toBe(1);
    expect(syncs.async).toBe(1);
    await sink.close();
    expect(syncs.async).toBe(2); // the new live file's line, at close
  });

  it("an interval's sync that fails is reported, with the lines it covered", async () => {
    const errors: Error[] = [];
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const { sink } = await sinkAt({ syncIntervalMs: 20, onError: (error) => errors.push(error) });
      syncs.failNext = true;
      for (let index = 0; index < 5; index++) sink.append(okEntry(`l${index}`));
      await drained(sink);
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 60_000, interval: 5 });
      expect(errors[0]?.message).toMatch(/5 entries written but not synced to disk: .*EIO/);
      await sink.close(); // nothing dirty since the failed sync began
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a sync setting it does not know, naming the option and the value", async () => {
    const path = join(tmpdir(), "never-created.jsonl");
    expect(() => new JsonlFileSink({ path, sync: "always" as never })).toThrow(/option sync must be true, false or "interval", got "always"/);
    expect(() => new JsonlFileSink({ path, syncIntervalMs: 0 })).toThrow(/option syncIntervalMs must be a positive number of milliseconds, got 0/);
    expect(() => new JsonlFileSink({ path, syncIntervalMs: Number.NaN })).toThrow(/syncIntervalMs/);
  });
});
