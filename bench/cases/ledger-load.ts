// Figure 9, one process: the default JSONL sink under load (issue 16, item 1).
//   line:      CPU per ledger line, writing entries of real calls into the sink's own reused
//              buffer with its own line writer (each entry once, as the sink does), beside
//              JSON.parse of the same raw text and the least line (bench/lib/least-line.ts).
//   capacity:  the sink alone, synced: lines per second it can write, and CPU per line
//              (serialising, encoding, writing, syncing: user + system time).
//   warm-up:   the open loop below for one phase's length, not measured (V8 sizes its heap to it).
//   open 2x:   calls offered at twice that capacity for a few seconds (overflow "drop"): calls/s,
//              p99 call latency, event-loop delay, RSS, the live heap (after a full GC) at start
//              and end; after flush, lines on disk + drops = calls.
//   closed:    1,000 callers, each awaiting its outcome, default options (overflow "wait").
//   durable:   the same 1,000 callers with `durable: true` (each outcome waits for its line).
//   baseline:  event-loop delay of work in 1 ms slices with no guard or sink: the machine's own stalls.
// Prints one JSON line.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { loadFigures } from "../lib/load-figures.ts";
import { pathToFileURL } from "node:url";
import { SMALL } from "../lib/fixtures.ts";
import { validTexts } from "../lib/bodies.ts";
import { leastLines, type Minted } from "../lib/least-line.ts";

const SMOKE = process.env["TOOLGUARD_BENCH_SMOKE"] === "1";
const PHASE_MS = SMOKE ? 200 : 3000;
const CALLERS = 1000;

const generated = path.join(SMALL, "generated");
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(generated, file)).href)) as T;

interface Sink {
  append(entry: unknown): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): { appended: number; written: number; dropped: number; pending: number; peakQueued: number };
}
interface Tool {
  call(raw: unknown, context: { turn: string }): Promise<{ status: string }>;
}
// The sink's own serialiser: one entry, one line, into the slice's reused buffer (what `JsonlFileSink` does per entry).
const { writeLine } = await load<{ writeLine: (out: unknown, entry: unknown, maxBytes: number) => void }>("runtime/ledger/line.js");
interface Writer {
  length: number;
  reset(): void;
  bytes(): Uint8Array;
  hexAt(at: number, value: number, width: number): void;
  decimalAt(at: number, value: number, width: number): void;
  bytesOf(bytes: Uint8Array): void;
  ascii(text: string): void;
  string(text: string): void;
  verbatim(text: string): boolean;
  newline(): void;
}
const { LineWriter } = await load<{ LineWriter: new (bound: number) => Writer }>("runtime/ledger/line-writer.js");
const pkg = await load<{
  tools: Record<string, { implement(impl: () => unknown, options: object): Tool }>;
  JsonlFileSink: new (options: object) => Sink;
}>("index.js");

const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };
/** Figure 9's line bodies: the invoice, GitHub's three small bodies (under 500 bytes a line) and the 1.2 KB ruleset. */
const TOOLS = ["create_invoice", "issues_create", "pulls_create", "repos_create-for-authenticated-user", "repos_create-org-ruleset"] as const;
const folder = mkdtempSync(path.join(tmpdir(), "toolguard-bench-ledger-"));
let files = 0;
const freshPath = (): string => path.join(folder, `ledger-${files++}.jsonl`);

function bind(name: string, ledger: object, extra: object = {}): Tool {
  const tool = pkg.tools[name];
  if (!tool) throw new Error(`${name} missing from the bench package`);
  return tool.implement(() => "done", { ledger, resolvers, ...extra });
}

/**
 * Entries of real calls of one tool, captured unserialised: `take(count)` makes `count` more calls
 * and hands over their entries. The tool is bound once, as in a process: a fresh binding's first
 * line compiles its redaction rules (1-12 ms), which figure 9 charged to every round of 20,000
 * lines (~0.06 us a line on issues/create, ~0.5 us on the ruleset) and now reports apart.
 */
function capturer(name: string): { take(count: number): Promise<unknown[]> } {
  let captured: unknown[] = [];
  const tool = bind(name, { append: (entry: unknown) => captured.push(entry), flush: async () => undefined, close: async () => undefined });
  // Distinct texts, as real calls are: one repeated text would let the ledger's per-text caches answer.
  const texts = validTexts(name, 4096);
  let next = 0;
  return {
    async take(count) {
      captured = [];
      for (let i = 0; i < count; i++, next++) await tool.call(texts[next & 4095], { turn: `t${next}` });
      return captured;
    },
  };
}

async function entriesOf(name: string, count: number): Promise<unknown[]> {
  return capturer(name).take(count);
}

const results: Record<string, unknown> = {};

// 1. The sink alone: how fast it writes, and its CPU per line.
{
  const entries = await entriesOf("create_invoice", SMOKE ? 500 : 30_000);
  const sink = new pkg.JsonlFileSink({ path: freshPath(), maxQueue: entries.length });
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (const entry of entries) sink.append(entry);
  await sink.close();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  results.capacity = { linesPerSecond: (entries.length / wallMs) * 1000, cpuNsPerLine: ((used.user + used.system) * 1000) / entries.length };
}
const capacity = (results.capacity as { linesPerSecond: number }).linesPerSecond;

interface Phase {
  calls: number;
  callsPerSecond: number;
  p99LatencyMs: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  rssStartMb: number;
  /** RSS a third into the phase and at its end: flat when the queue is bounded. */
  rssThirdMb: number;
  rssMaxMb: number;
  rssEndMb: number;
  /** Heap in use after a full collection at the start and the end (live memory: a leak shows here whatever V8's sizing does to RSS). */
  liveStartMb: number;
  liveEndMb: number;
  linesOnDisk: number;
  dropped: number;
  peakQueued: number;
  accounted: boolean;
}

/** Heap in use after a full collection, in MB; NaN without --expose-gc. */
function liveMb(): number {
  if (global.gc === undefined) return Number.NaN;
  global.gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function measure(run: (record: (ms: number) => void, stopAt: number) => Promise<number>, sink: Sink, file: string): Promise<Phase> {
  // Latencies in a native histogram (microseconds), not an array of every call's: at 87,000 calls
  // a second the array was 0.7 MB a second of the heap, and its copies as it grew, in the figure.
  const latencies = createHistogram();
  const rss: number[] = [];
  const liveStartMb = liveMb();
  const rssStart = process.memoryUsage().rss;
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 50);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const start = performance.now();
  const calls = await run((ms) => latencies.record(Math.max(1, Math.round(ms * 1000))), start + PHASE_MS);
  const seconds = (performance.now() - start) / 1000;
  delay.disable();
  clearInterval(sampler);
  await sink.close().catch(() => undefined); // drops are reported by close(); counted below
  const stats = sink.stats();
  const linesOnDisk = readFileSync(file, "utf8").split("\n").length - 1;
  return {
    calls,
    callsPerSecond: calls / seconds,
    p99LatencyMs: latencies.count === 0 ? Number.NaN : latencies.percentile(99) / 1000,
    ...loadFigures(delay, rssStart, rss),
    liveStartMb,
    liveEndMb: liveMb(),
    linesOnDisk,
    dropped: stats.dropped,
    peakQueued: stats.peakQueued,
    accounted: linesOnDisk + stats.dropped === calls,
  };
}

const invoiceTexts = validTexts("create_invoice", 4096);
let nextInvoice = 0;
const invoiceText = (): string => invoiceTexts[nextInvoice++ & 4095] as string;

// 1b. The machine's own stalls: the same length of work in slices of at most 1 ms (JSON.parse of
// the body), no guard and no ledger. On a shared machine the process is descheduled now and
// then; a loop delay seen here is not the sink's.
{
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const stopAt = performance.now() + PHASE_MS;
  while (performance.now() < stopAt) {
    const sliceEnd = performance.now() + 1;
    while (performance.now() < sliceEnd) JSON.parse(invoiceText());
    await new Promise((done) => setImmediate(done));
  }
  delay.disable();
  results.baseline = { loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6 };
}

/** Calls offered at `rate` until `stopAt`, in an open loop (whether or not earlier ones finished), then awaited; how many. */
async function openLoop(tool: Tool, rate: number, stopAt: number, record: (ms: number) => void): Promise<number> {
  let issued = 0;
  const start = performance.now();
  const pending = new Set<Promise<unknown>>();
  while (performance.now() < stopAt) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    // Issue what is due, in bounded bursts, then let the event loop run.
    for (let burst = 0; issued < due && burst < 256; burst++, issued++) {
      const began = performance.now();
      const call = tool.call(invoiceText(), { turn: `o${issued}` }).then(() => record(performance.now() - began));
      pending.add(call);
      void call.finally(() => pending.delete(call));
    }
    await new Promise((done) => setImmediate(done));
  }
  await Promise.all(pending);
  return issued;
}

// 2. Open loop at twice the sink's capacity: calls arrive whether or not earlier ones finished.
// The phases' sinks never rotate, so every line written is in the one file counted. A warm-up of
// the same loop runs first, not measured (as figure 12's): the first seconds of load size V8's
// heap (new space to its largest, the old generation's limit), RSS grew ~60 MB in them while the
// heap in use after a full collection stayed the same, and the phase that ran first, "drop", was
// charged that growth. The live heap at each phase's start and end is reported beside RSS.
{
  const file = freshPath();
  const sink = new pkg.JsonlFileSink({ path: file, overflow: "drop", maxFileBytes: Infinity });
  const rssStartMb = process.memoryUsage().rss / 1024 / 1024;
  await openLoop(bind("create_invoice", sink), 2 * capacity, performance.now() + PHASE_MS, () => undefined);
  await sink.close().catch(() => undefined);
  rmSync(file);
  results.warmup = { seconds: PHASE_MS / 1000, rssStartMb, rssEndMb: process.memoryUsage().rss / 1024 / 1024 };
}
{
  const file = freshPath();
  const sink = new pkg.JsonlFileSink({ path: file, overflow: "drop", maxFileBytes: Infinity });
  const tool = bind("create_invoice", sink);
  const rate = 2 * capacity;
  results.open2x = { offeredPerSecond: rate, ...(await measure((record, stopAt) => openLoop(tool, rate, stopAt, record), sink, file)) };
}

// 3 and 4. Closed loop: 1,000 callers, each awaiting its outcome; default options, then durable.
for (const [key, extra] of [
  ["closed", {}],
  ["durable", { durable: true }],
] as const) {
  const file = freshPath();
  const sink = new pkg.JsonlFileSink({ path: file, maxFileBytes: Infinity });
  const tool = bind("create_invoice", sink, extra);
  results[key] = await measure(
    async (record, stopAt) => {
      let calls = 0;
      await Promise.all(
        Array.from({ length: CALLERS }, async (_, caller) => {
          while (performance.now() < stopAt) {
            const began = performance.now();
            await tool.call(invoiceText(), { turn: `${caller}-${calls++}` });
            record(performance.now() - began);
          }
        }),
      );
      return calls;
    },
    sink,
    file,
  );
}

// 5. CPU per line, measured last (its batches of captured entries grow the heap); each entry
// serialised once, as the sink does (a second serialisation would hit its caches), into one
// writer reused from round to round, as the sink reuses its slice buffer (a fresh writer's kernel
// memory is untouched pages). Each tool is bound once; its first line, which compiles the tool's
// redaction rules, is reported apart (`firstLineUs`): a process pays it once per tool.
const lineWriter = new LineWriter(1 << 20);
for (const name of TOOLS) {
  const texts = validTexts(name, 4096);
  const batch = SMOKE ? 200 : 20_000;
  const lineNs: number[] = [];
  const parseNs: number[] = [];
  const leastNs: number[] = [];
  let bytes = 0;
  const calls = capturer(name);
  const out = lineWriter;
  out.reset();
  const [first] = await calls.take(1);
  const firstCpu = process.cpuUsage();
  writeLine(out, first, 1 << 20);
  const firstLineUs = cpuNs(process.cpuUsage(firstCpu)) / 1000;
  let leastIsLine = false;
  for (let round = 0; round < (SMOKE ? 1 : 7); round++) {
    const entries = (await calls.take(batch)) as readonly Minted[];
    // CPU time (user + system), not wall time: on a shared machine the process is descheduled
    // for part of any wall-clock interval, and the target is CPU per line.
    out.reset();
    let start = process.cpuUsage();
    for (const entry of entries) {
      // A slice ends past 1 MiB, as in the sink.
      if (out.length > 1 << 20) out.reset();
      const before = out.length;
      writeLine(out, entry, 1 << 20);
      bytes = out.length - before;
    }
    lineNs.push(cpuNs(process.cpuUsage(start)) / batch);
    start = process.cpuUsage();
    for (let i = 0; i < batch; i++) JSON.parse(texts[i & 4095] as string);
    parseNs.push(cpuNs(process.cpuUsage(start)) / batch);
    const least = leastLines(out, name, entries, (entry) => writeLine(out, entry, 1 << 20));
    leastNs.push(least.ns);
    leastIsLine = least.sameAsLine;
  }
  results[`line:${name}`] = { lineNs: median(lineNs), jsonParseNs: median(parseNs), leastLineNs: median(leastNs), lineBytes: bytes, firstLineUs, leastIsLine };
}

rmSync(folder, { recursive: true, force: true });
for (const key of ["open2x", "closed", "durable"]) {
  const phase = results[key] as Phase;
  if (!phase.accounted) throw new Error(`${key}: ${phase.linesOnDisk} lines on disk + ${phase.dropped} dropped != ${phase.calls} calls`);
}
console.log(JSON.stringify(results));

function cpuNs(used: NodeJS.CpuUsage): number {
  return (used.user + used.system) * 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
