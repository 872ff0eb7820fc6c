// The ledger across processes: two writers appending large entries, a writer killed with -9 in
// durable mode, `process.exit()` right after a call, SIGTERM with the signal hooks. The children
// run test/ledger/child.ts with the pinned node (this test's own `process.execPath`).
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import type { LedgerSinkStats } from "../../templates/runtime/contract/ledger-entry.ts";
import { readLedger, scanLedger } from "../../templates/runtime/ledger/read.ts";

const CHILD = join(import.meta.dirname, "child.ts");

function run(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => done({ code, stderr }));
  });
}

async function temp(): Promise<string> {
  return mkdtemp(join(tmpdir(), "toolguard-ledger-proc-"));
}

/** Runs the child until it has reported `outcomes` outcomes, then kills it with SIGKILL; returns the last reported index. */
async function killAfter(args: readonly string[], outcomes: number): Promise<number> {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let reported = -1;
  let buffer = "";
  await new Promise<void>((done) => {
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) reported = Number(line.slice(3));
      // Killed mid-stream, while calls are being made and written.
      if (reported >= outcomes && !child.killed) child.kill("SIGKILL");
    });
    child.on("close", () => done());
  });
  expect(reported).toBeGreaterThanOrEqual(outcomes);
  return reported;
}

/**
 * Runs `failing` until it has reported `outcomes` failure envelopes, then kills it with SIGKILL;
 * returns the turns of every failure and every repair whose outcome the child had returned.
 */
async function killFailing(path: string, tag: string, outcomes: number): Promise<{ failed: string[]; repaired: string[] }> {
  const child = spawn(process.execPath, [CHILD, "failing", path, "100000", tag], { stdio: ["ignore", "pipe", "inherit"] });
  const failed: string[] = [];
  const repaired: string[] = [];
  let buffer = "";
  await new Promise<void>((done) => {
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const [what, index] = line.split(" ");
        (what === "failed" ? failed : repaired).push(`${tag}-${index}`);
      }
      if (failed.length >= outcomes && !child.killed) child.kill("SIGKILL");
    });
    child.on("close", () => done());
  });
  return { failed, repaired };
}

/** Runs `rotate` in `writers` processes on one ledger at once; returns their sinks' stats. */
async function rotateTogether(path: string, writers: number, count: number): Promise<LedgerSinkStats[]> {
  const startAt = String(Date.now() + 2000);
  return Promise.all(
    Array.from({ length: writers }, (_, writer) => {
      const child = spawn(process.execPath, [CHILD, "rotate", path, String(count), `w${writer}`, startAt], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      return new Promise<LedgerSinkStats>((done, fail) =>
        child.on("close", (code) => (code === 0 ? done(JSON.parse(out) as LedgerSinkStats) : fail(new Error(`writer ${writer} exited ${code}`)))),
      );
    }),
  );
}

describe("the ledger across processes", () => {
  it("runs its children on the pinned node", () => {
    expect(spawnSync(process.execPath, ["--version"]).stdout.toString()).toMatch(/^v24\./);
  });

  it("never interleaves two processes' lines, with entries larger than one write chunk (700 KB)", async () => {
    const path = join(await temp(), "ledger.jsonl");
    // Both start writing at the same moment, whatever their start-up took.
    const startAt = String(Date.now() + 2000);
    const [a, b] = await Promise.all([
      run(["append", path, "12", String(700 * 1024), "a", startAt]),
      run(["append", path, "12", String(700 * 1024), "b", startAt]),
    ]);
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, "", ""]);
    const scan = { entries: 0, torn: 0 };
    const turns: string[] = [];
    for await (const entry of scanLedger(path, scan)) turns.push(entry.turn);
    expect(scan).toEqual({ entries: 24, torn: 0 });
    expect(turns.sort()).toEqual([...Array.from({ length: 12 }, (_, i) => `a-${i}`), ...Array.from({ length: 12 }, (_, i) => `b-${i}`)].sort());
  });

  it("durable mode: after kill -9, every call whose outcome was returned has its entry on disk", async () => {
    const path = join(await temp(), "ledger.jsonl");
    const reported = await killAfter(["durable", path, "100000"], 300);
    const turns = new Set((await readLedger(path)).map((entry) => entry.turn));
    const missing = Array.from({ length: reported + 1 }, (_, i) => `turn-${i}`).filter((turn) => !turns.has(turn));
    expect(missing).toEqual([]);
  });

  it("default options: a writer killed with -9 again and again never loses a failure or repair whose envelope was returned, and tears no line", async () => {
    const path = join(await temp(), "ledger.jsonl");
    const failed: string[] = [];
    const repaired: string[] = [];
    // Four restarts on one file, each killed at a different point (counted, not timed).
    for (const [round, outcomes] of [7, 41, 3, 25].entries()) {
      const seen = await killFailing(path, `r${round}`, outcomes);
      expect(seen.failed.length).toBeGreaterThanOrEqual(outcomes);
      failed.push(...seen.failed);
      repaired.push(...seen.repaired);
    }
    const scan = { entries: 0, torn: 0 };
    const verdicts = new Map<string, Set<string>>();
    for await (const entry of scanLedger(path, scan)) {
      const seen = verdicts.get(entry.turn) ?? new Set<string>();
      seen.add(entry.verdict);
      verdicts.set(entry.turn, seen);
    }
    expect(scan.torn).toBe(0);
    expect(failed.filter((turn) => !verdicts.get(turn)?.has("open"))).toEqual([]);
    expect(repaired.filter((turn) => !verdicts.get(turn)?.has("repaired"))).toEqual([]);
  });

  it("without durable mode, kill -9 loses at most the queue's bound (twice maxQueue under overflow wait) plus one slice", async () => {
    const path = join(await temp(), "ledger.jsonl");
    const reported = await killAfter(["queued", path, "1000000"], 3000);
    const turns = new Set((await readLedger(path)).map((entry) => entry.turn));
    const missing = Array.from({ length: reported + 1 }, (_, i) => `turn-${i}`).filter((turn) => !turns.has(turn));
    expect(missing.length).toBeLessThanOrEqual(2 * 100 + 512);
  });

  for (const writers of [2, 4]) {
    it(`${writers} processes rotating one ledger: lines on disk + lines counted as rotated away + drops = appended, exactly`, async () => {
      const path = join(await temp(), "ledger.jsonl");
      // Counted, not timed: 150,000 entries of ~300 bytes, a rotation every 32 KiB (about 4,700
      // rotations, and as many closed files removed by whichever writer gets there first), one
      // entry in 8 written through. About a minute of writing on a loaded two-core machine.
      const total = 150_000;
      const stats = await rotateTogether(path, writers, total / writers);
      const sum = (key: "appended" | "dropped" | "rotatedAway" | "rotations"): number => stats.reduce((all, one) => all + (one[key] ?? 0), 0);
      const scan = { entries: 0, torn: 0 };
      const onDisk = new Set<string>();
      for await (const entry of scanLedger(path, scan)) onDisk.add(entry.turn);
      expect(sum("appended")).toBe(total);
      expect(sum("rotations")).toBeGreaterThan(100);
      expect(scan.torn).toBe(0);
      expect(onDisk.size).toBe(scan.entries); // no entry written twice
      expect(scan.entries + sum("rotatedAway") + sum("dropped")).toBe(total);
      // The ledger's newest lines are there: retention removed the oldest files. (Each writer's
      // newest is not: two files of 32 KiB hold ~200 lines, so a writer that finishes that far
      // ahead of another has its last lines rotated away, counted above.)
      const newest = Array.from({ length: writers }, (_, writer) => onDisk.has(`w${writer}-${total / writers - 1}`));
      expect(newest).toContain(true);
      // Closed, the writers left the ledger's files and nothing else: no owner, no file half removed.
      const names = await readdir(dirname(path));
      expect(names.filter((name) => !/^ledger\.(jsonl|\d+-\d+-[0-9a-f]{6}(\.\d+)?\.jsonl)$/.test(name))).toEqual([]);
    }, 0); // no time limit: bounded by counts
  }

  it("process.exit() right after a call: the default sink writes the entry on exit", async () => {
    const cwd = await temp();
    const { code, stderr } = await run(["exit", cwd]);
    expect([code, stderr]).toEqual([0, ""]);
    const entries = await readLedger(join(cwd, ".toolguard", "ledger.jsonl"));
    expect(entries.map((entry) => entry.turn)).toEqual(["exit-turn"]);
  });

  it("SIGTERM with flushLedgerOnSignals: every queued entry is written, and the process still ends by the signal", async () => {
    const path = join(await temp(), "ledger.jsonl");
    const child = spawn(process.execPath, [CHILD, "sigterm", path, "5000"], { stdio: ["ignore", "pipe", "inherit"] });
    const signal = await new Promise<NodeJS.Signals | null>((done) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) child.kill("SIGTERM");
      });
      child.on("close", (_code, signal) => done(signal));
    });
    expect(signal).toBe("SIGTERM");
    const entries: LedgerEntry[] = await readLedger(path);
    expect(new Set(entries.map((entry) => entry.turn)).size).toBe(5000);
    expect((await readFile(path, "utf8")).endsWith("\n")).toBe(true);
  });
});
