// The default JSONL sink's cost per valid call's line for two or more generated packages side by
// side in one process (figure 1's "sink CPU ns per line", A/B): per round each side makes 2,000
// `check`s of a body (entries captured, untimed), then appends them to its own JsonlFileSink and
// awaits `flush` (timed: CPU, user + system, and wall: serialise, write, fdatasync). Sides rotate.
// Prints per body each side's median CPU ns per line, its ratio to the first side, its wall ns
// and its bytes per line (the file's size over the lines written). Name a package twice for an
// A/A pair. Set up as bench/charged-ab.ts says.
//
//   npx node bench/sink-ab.ts now=.scratch/ab/now base=.scratch/ab/base now2=.scratch/ab/now base2=.scratch/ab/base
//
// Options: --rounds N (21), --tools a,b (figure 9's five bodies), --no-sync (the sink without fdatasync).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { validTexts } from "./lib/bodies.ts";
import { median } from "./lib/stats.ts";

const FIGURE_9_TOOLS = ["create_invoice", "issues_create", "pulls_create", "repos_create-for-authenticated-user", "repos_create-org-ruleset"];
const BATCH = 2000;
const WARMUP = 3;
const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "21" }, tools: { type: "string" }, "no-sync": { type: "boolean", default: false } },
});
const rounds = Number(values.rounds);
if (positionals.length < 2 || positionals.some((spec) => !/^[^=]+=.+$/.test(spec)) || !Number.isInteger(rounds) || rounds < 1) {
  console.error("usage: npx node bench/sink-ab.ts [--rounds N] [--tools a,b] [--no-sync] LABEL=PACKAGE LABEL=PACKAGE ... (generated packages)");
  process.exit(2);
}
const tools = values.tools === undefined ? FIGURE_9_TOOLS : values.tools.split(",");

interface Sink {
  append(entry: unknown): void;
  flush(): Promise<unknown>;
  close(): Promise<unknown>;
}
interface Package {
  readonly tools: Record<
    string,
    { implement(impl: () => unknown, options: object): { check(raw: string, context: { turn: string }): unknown; ready(): Promise<void> } } | undefined
  >;
  readonly JsonlFileSink: new (options: { path: string; sync: boolean }) => Sink;
}

const sides: { label: string; pkg: Package }[] = [];
for (const spec of positionals) {
  const label = spec.slice(0, spec.indexOf("="));
  const folder = path.resolve(spec.slice(spec.indexOf("=") + 1));
  sides.push({ label, pkg: (await import(pathToFileURL(path.join(folder, "index.js")).href)) as Package });
}

const folder = mkdtempSync(path.join(tmpdir(), "toolguard-sink-ab-"));
for (const name of tools) {
  const texts = validTexts(name, 4096);
  const prepared = [];
  for (const { label, pkg } of sides) {
    const tool = pkg.tools[name];
    if (tool === undefined) throw new Error(`${label}: no tool ${name}`);
    let captured: unknown[] = [];
    const guarded = tool.implement(() => "done", {
      resolvers,
      ledger: { append: (entry: unknown) => captured.push(entry), flush: async () => {}, close: async () => {} },
    });
    await guarded.ready();
    const file = path.join(folder, `${label}-${name}.jsonl`);
    const sink = new pkg.JsonlFileSink({ path: file, sync: !values["no-sync"] });
    let next = 0;
    // Each side's entries are made right before its own timing (bench/line-ab.ts says why).
    const take = (): unknown[] => {
      captured = [];
      for (let index = 0; index < BATCH; index++, next++) guarded.check(texts[next & 4095] as string, { turn: `t${next}` });
      return captured;
    };
    for (const entry of take()) sink.append(entry);
    await sink.flush();
    prepared.push({ label, sink, take, file, cpu: [] as number[], wall: [] as number[] });
  }
  for (let round = -WARMUP; round < rounds; round++) {
    for (let turn = 0; turn < prepared.length; turn++) {
      const side = prepared[(turn + Math.max(round, 0)) % prepared.length] as (typeof prepared)[number];
      const entries = side.take();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (const entry of entries) side.sink.append(entry);
      await side.sink.flush();
      const wall = Number(process.hrtime.bigint() - start);
      const used = process.cpuUsage(cpu);
      if (round < 0) continue;
      side.cpu.push(((used.user + used.system) * 1000) / BATCH);
      side.wall.push(wall / BATCH);
    }
  }
  const base = median(prepared[0]?.cpu ?? []);
  const cells = prepared.map((side) => {
    const ns = median(side.cpu);
    const bytes = statSync(side.file).size / ((rounds + WARMUP + 1) * BATCH);
    return `${side.label} ${ns.toFixed(0)} ns (${(ns / base).toFixed(3)}), wall ${median(side.wall).toFixed(0)}, ${bytes.toFixed(0)} B`;
  });
  console.log(`${name.padEnd(38)} ${cells.join("  ")}`);
  for (const side of prepared) await side.sink.close();
}
rmSync(folder, { recursive: true, force: true });
