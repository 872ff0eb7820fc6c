// Figure 9's ledger line, two or more generated packages side by side in one process, for A/B
// work on the line writer: each package's own tool, entries and `LineWriter`, the same texts.
// Per round each side makes a batch of real calls (its entries captured, untimed) and at once
// writes their lines, timed (CPU, user + system), the sides in rotating order. Capturing each
// side's batch right before its own timing matters: entries captured earlier and written later
// are moved by the scavenger in between, packed together, and their lines read 12-50% cheaper
// whichever package it was (line17 saw it too). Name a package twice for an A/A pair: the noise.
//
//   npx node -e 'import("./bench/lib/fixtures.ts").then((m) => m.buildFixtures({ full: false }))'
//   cp -r .scratch/bench/small/generated .scratch/ab/base   # before the change; again as base2
//   (change the runtime, build the fixtures again)
//   npx node bench/line-ab.ts base=.scratch/ab/base base2=.scratch/ab/base2 now=.scratch/bench/small/generated
//
// Options: --rounds N (21), --batch N (20,000 calls a side a round), --tools a,b (figure 9's five).
// Prints per body each side's median CPU ns per line and its ratio to the first side. The machine's
// drift between processes is larger than within one: run it three times or more, the sides'
// order rotated, and read the ratios' medians.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { validTexts } from "./lib/bodies.ts";
import { median } from "./lib/stats.ts";

const FIGURE_9_TOOLS = ["create_invoice", "issues_create", "pulls_create", "repos_create-for-authenticated-user", "repos_create-org-ruleset"];
const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "21" }, batch: { type: "string", default: "20000" }, tools: { type: "string" } },
});
const rounds = Number(values.rounds);
const batch = Number(values.batch);
if (positionals.length < 2 || positionals.some((spec) => !/^[^=]+=.+$/.test(spec))) {
  console.error("usage: npx node bench/line-ab.ts [--rounds N] [--batch N] [--tools a,b] LABEL=PACKAGE LABEL=PACKAGE ... (generated packages)");
  process.exit(2);
}
for (const [option, value] of [
  ["rounds", rounds],
  ["batch", batch],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${option} must be a whole number of at least 1, not ${values[option]}`);
    process.exit(2);
  }
}
const tools = values.tools === undefined ? FIGURE_9_TOOLS : values.tools.split(",");

interface Writer {
  readonly length: number;
  reset(): void;
}
interface Tool {
  call(raw: string, context: { turn: string }): Promise<unknown>;
}
interface Side {
  readonly label: string;
  readonly writeLine: (out: Writer, entry: unknown, maxBytes: number) => void;
  readonly out: Writer;
  readonly tools: Record<string, { implement(impl: () => unknown, options: object): Tool } | undefined>;
}

const sides: Side[] = [];
for (const spec of positionals) {
  const [label, folder] = [spec.slice(0, spec.indexOf("=")), path.resolve(spec.slice(spec.indexOf("=") + 1))];
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(folder, file)).href)) as T;
  const { writeLine } = await load<{ writeLine: Side["writeLine"] }>("runtime/ledger/line.js");
  const { LineWriter } = await load<{ LineWriter: new (bound: number) => Writer }>("runtime/ledger/line-writer.js");
  const { tools: packageTools } = await load<{ tools: Side["tools"] }>("index.js");
  sides.push({ label, writeLine, out: new LineWriter(1 << 20), tools: packageTools });
}

/** Each side's tool bound once (its first line, which compiles its redaction rules, written untimed); `take(n)`: n more calls' entries. */
function capturer(side: Side, name: string): (count: number) => Promise<unknown[]> {
  const tool = side.tools[name];
  if (tool === undefined) throw new Error(`${side.label}: no tool ${name}`);
  let captured: unknown[] = [];
  const bound = tool.implement(() => "done", {
    resolvers,
    ledger: { append: (entry: unknown) => captured.push(entry), flush: async () => {}, close: async () => {} },
  });
  // Distinct texts, as real calls are: one repeated text would let the ledger's per-text caches answer.
  const texts = validTexts(name, 4096);
  let next = 0;
  return async (count) => {
    captured = [];
    for (let index = 0; index < count; index++, next++) await bound.call(texts[next & 4095] as string, { turn: `t${next}` });
    return captured;
  };
}

for (const name of tools) {
  const takes = sides.map((side) => capturer(side, name));
  for (const [index, side] of sides.entries()) {
    const [first] = await (takes[index] as (count: number) => Promise<unknown[]>)(1);
    side.out.reset();
    side.writeLine(side.out, first, 1 << 20);
  }
  const samples = sides.map((): number[] => []);
  for (let round = -3; round < rounds; round++) {
    for (let turn = 0; turn < sides.length; turn++) {
      const index = (turn + Math.max(round, 0)) % sides.length;
      const side = sides[index] as Side;
      const entries = await (takes[index] as (count: number) => Promise<unknown[]>)(batch);
      const { out, writeLine } = side;
      out.reset();
      const start = process.cpuUsage();
      for (const entry of entries) {
        // A slice ends past 1 MiB, as in the sink.
        if (out.length > 1 << 20) out.reset();
        writeLine(out, entry, 1 << 20);
      }
      const used = process.cpuUsage(start);
      if (round >= 0) samples[index]?.push(((used.user + used.system) * 1000) / entries.length);
    }
  }
  const base = median(samples[0] as number[]);
  const cells = sides.map((side, index) => {
    const ns = median(samples[index] as number[]);
    return `${side.label} ${ns.toFixed(0)} ns (${(ns / base).toFixed(3)})`;
  });
  console.log(`${name.padEnd(38)} ${cells.join("  ")}`);
}
