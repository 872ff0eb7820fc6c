// Figure 12, one process (issue 26): the default JSONL sink offered twice what it can write, for
// 30 seconds (TOOLGUARD_BENCH_OVERLOAD_S), under each overflow policy: "drop", "wait" (the
// default, holding at most maxWaiting callers) and "wait" with durable outcomes. Calls arrive on
// a clock whether or not earlier ones finished (an open loop). For each: event-loop delay max
// and p99, RSS at the start, a third in and at the end (flat when nothing grows without bound),
// and every call accounted for: lines on disk + dropped = issued, and how many callers past the
// wait bound got their outcome at once (notHeld); the heap in use after a full collection at the
// start and end of each (live memory). A warm-up of the same loop runs first (below). Prints one JSON line.
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadFigures } from "../lib/load-figures.ts";
import { pathToFileURL } from "node:url";
import { validTexts } from "../lib/bodies.ts";
import { SMALL } from "../lib/fixtures.ts";

const SMOKE = process.env["TOOLGUARD_BENCH_SMOKE"] === "1";
const SECONDS = SMOKE ? 0.3 : Number(process.env["TOOLGUARD_BENCH_OVERLOAD_S"] ?? 30);

interface Stats {
  appended: number;
  written: number;
  dropped: number;
  pending: number;
  peakQueued: number;
  peakWaiting?: number;
  notHeld?: number;
}
interface Sink {
  append(entry: unknown): void;
  close(): Promise<Stats>;
  stats(): Stats;
}
interface Tool {
  call(raw: unknown, context: { turn: string }): Promise<{ status: string }>;
}
const generated = path.join(SMALL, "generated");
const pkg = (await import(pathToFileURL(path.join(generated, "index.js")).href)) as {
  tools: Record<string, { implement(impl: () => unknown, options: object): Tool }>;
  JsonlFileSink: new (options: object) => Sink;
};
const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };
const folder = mkdtempSync(path.join(tmpdir(), "toolguard-bench-overload-"));
let files = 0;
const texts = validTexts("create_invoice", 4096);
const bind = (ledger: Sink, extra: object = {}): Tool => {
  const tool = pkg.tools["create_invoice"];
  if (!tool) throw new Error("create_invoice missing from the bench package");
  return tool.implement(() => "done", { ledger, resolvers, ...extra });
};

// The sink's own rate: synced lines per second, entries of real calls.
async function capacity(): Promise<number> {
  const captured: unknown[] = [];
  const tool = bind({ append: (entry: unknown) => captured.push(entry), close: async () => ({}) as Stats, stats: () => ({}) as Stats });
  for (let i = 0; i < (SMOKE ? 500 : 30_000); i++) await tool.call(texts[i & 4095], { turn: `c${i}` });
  const sink = new pkg.JsonlFileSink({ path: path.join(folder, `capacity-${files++}.jsonl`), maxQueue: captured.length, maxFileBytes: Infinity });
  const start = performance.now();
  for (const entry of captured) sink.append(entry);
  await sink.close();
  return (captured.length / (performance.now() - start)) * 1000;
}

const rate = 2 * (await capacity());
const results: Record<string, unknown> = { offeredPerSecond: rate, seconds: SECONDS };

/** Heap in use after a full collection (live memory), in MB; NaN without --expose-gc. */
function liveMb(): number {
  if (global.gc === undefined) return Number.NaN;
  global.gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Calls offered at `rate` for `seconds` in an open loop, then awaited; what the phase counts. */
async function openLoop(
  tool: Tool,
  seconds: number,
): Promise<{ issued: number; answered: number; peakInFlight: number; statuses: Map<string, number>; start: number }> {
  const start = performance.now();
  const stopAt = start + seconds * 1000;
  let issued = 0;
  let answered = 0;
  let peakInFlight = 0;
  const statuses = new Map<string, number>();
  const inFlight = new Set<Promise<unknown>>();
  while (performance.now() < stopAt) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    // Issue what is due, in bounded bursts, then let the event loop run.
    for (let burst = 0; issued < due && burst < 256; burst++, issued++) {
      const call = tool.call(texts[issued & 4095], { turn: `o${issued}` }).then((outcome) => {
        answered++;
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      });
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    if (inFlight.size > peakInFlight) peakInFlight = inFlight.size;
    await new Promise((done) => setImmediate(done));
  }
  await Promise.all(inFlight);
  return { issued, answered, peakInFlight, statuses, start };
}

// Warm-up: the same open loop for a few seconds, not measured. The first seconds of load size
// V8's heap to it (its total grew ~60 -> ~165 MB, RSS ~135 -> ~250 MB, while the heap in use
// after a full collection stayed ~10 MB), and whichever policy ran first was charged that
// growth: "drop" looked as if it grew while "wait" after it looked flat.
{
  const file = path.join(folder, `overload-${files++}.jsonl`);
  const sink = new pkg.JsonlFileSink({ path: file, maxFileBytes: Infinity, overflow: "drop" });
  global.gc?.();
  const rssStartMb = process.memoryUsage().rss / 1024 / 1024;
  const seconds = Math.min(5, SECONDS / 3);
  await openLoop(bind(sink), seconds);
  await sink.close();
  rmSync(file);
  results.warmup = { seconds, rssStartMb, rssEndMb: process.memoryUsage().rss / 1024 / 1024 };
}

for (const [policy, sinkOptions, guardOptions] of [
  ["drop", { overflow: "drop" }, {}],
  ["wait", {}, {}],
  ["wait, durable", {}, { durable: true }],
] as const) {
  const file = path.join(folder, `overload-${files++}.jsonl`);
  const sink = new pkg.JsonlFileSink({ path: file, maxFileBytes: Infinity, ...sinkOptions });
  const tool = bind(sink, guardOptions);
  const liveStartMb = liveMb();
  const rssStart = process.memoryUsage().rss;
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const { issued, answered, peakInFlight, statuses, start } = await openLoop(tool, SECONDS);
  delay.disable();
  clearInterval(sampler);
  const stats = await sink.close();
  const linesOnDisk = countLines(file);
  results[policy] = {
    issued,
    answered,
    statuses: Object.fromEntries(statuses),
    callsPerSecond: issued / ((performance.now() - start) / 1000),
    ...loadFigures(delay, rssStart, rss),
    // Live memory at the start and once the sink closed: a leak shows here whatever V8's sizing does to RSS.
    liveStartMb,
    liveEndMb: liveMb(),
    peakInFlight,
    linesOnDisk,
    dropped: stats.dropped,
    notHeld: stats.notHeld ?? 0,
    peakQueued: stats.peakQueued,
    peakWaiting: stats.peakWaiting ?? 0,
    accounted: linesOnDisk + stats.dropped === issued && answered === issued,
  };
  rmSync(file);
}

// The machine's own stalls, for as long as one policy ran: work in slices of at most 1 ms
// (JSON.parse of the body), no guard and no sink. A delay seen here is not the sink's.
{
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const stopAt = performance.now() + SECONDS * 1000;
  let next = 0;
  while (performance.now() < stopAt) {
    const sliceEnd = performance.now() + 1;
    while (performance.now() < sliceEnd) JSON.parse(texts[next++ & 4095] as string);
    await new Promise((done) => setImmediate(done));
  }
  delay.disable();
  results.baseline = { loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6 };
}

rmSync(folder, { recursive: true, force: true });
for (const [policy, phase] of Object.entries(results)) {
  if (typeof phase !== "object" || phase === null || policy === "baseline" || policy === "warmup") continue;
  const p = phase as { accounted: boolean; linesOnDisk: number; dropped: number; issued: number; answered: number };
  if (!p.accounted) throw new Error(`${policy}: ${p.linesOnDisk} lines on disk + ${p.dropped} dropped != ${p.issued} issued, or ${p.answered} answered`);
}
console.log(JSON.stringify(results));

/** Newlines in `file`, read in 1 MiB chunks: a quiet machine writes more than a string may hold (512 MiB). */
function countLines(file: string): number {
  const fd = openSync(file, "r");
  const chunk = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk))
      for (let index = chunk.indexOf(10); index !== -1 && index < read; index = chunk.indexOf(10, index + 1)) lines++;
  } finally {
    closeSync(fd);
  }
  return lines;
}
