// The workers' share of generation (emitTool, the passes over ajv's code, the types, the tool
// module) of two built trees side by side in one process, for A/B work on generation speed:
// a whole `generate` also reads the spec and spreads over threads, and its CPU on a loaded
// machine moves by 15% from run to run; here both trees emit the same tools in alternating
// rounds (A B, B A, ...) on one thread, so the machine's drift falls on both.
//
//   npm run build   # in each tree, untimed
//   npx node bench/emit-ab.ts --folder DIR --rounds 6 --step 6 base=/path/to/old-tree now=.
//   npx node bench/emit-ab.ts --folder DIR --rounds 10 --step 3 --chunk 8 base=... now=.
//
// DIR holds a toolguard.config.json (its first set is read); each tree reads it with its own
// reader and emits the tools both read (by name), every STEP-th. Prints CPU (user + system) per
// round and the medians. With --chunk N, each round takes turns every N tools (A B, then B A, on
// the same N tools), so that a change in the machine's load lasting longer than a few tools falls
// on both sides alike, and sums each side's CPU: the per-round ratios spread much less.
import { cpuUsage } from "node:process";
import path from "node:path";
import { parseArgs } from "node:util";

interface Side {
  readonly label: string;
  readonly emit: (tool: { name: string }) => Promise<unknown>;
  tools: { name: string }[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    folder: { type: "string" },
    rounds: { type: "string", default: "6" },
    step: { type: "string", default: "6" },
    chunk: { type: "string", default: "0" },
  },
});
if (!values.folder || positionals.length !== 2 || positionals.some((spec) => !spec.includes("="))) {
  console.error("usage: npx node bench/emit-ab.ts --folder DIR [--rounds N] [--step N] [--chunk N] LABEL=TREE LABEL=TREE (both trees built)");
  process.exit(2);
}
const rounds = Number(values.rounds);
const step = Number(values.step);
const chunk = Number(values.chunk);
for (const [option, value, least] of [
  ["rounds", rounds, 1],
  ["step", step, 1],
  ["chunk", chunk, 0],
] as const) {
  if (!Number.isInteger(value) || value < least) {
    console.error(`--${option} must be a whole number of at least ${least}, not ${values[option]}`);
    process.exit(2);
  }
}

const sides: Side[] = [];
for (const spec of positionals) {
  const [label, tree] = spec.split("=") as [string, string];
  const dist = path.resolve(tree, "dist/generator");
  const { loadConfig } = (await import(path.join(dist, "config.js"))) as { loadConfig: (cwd: string) => Promise<{ sets: unknown[] }> };
  const { describeSet } = (await import(path.join(dist, "generate.js"))) as {
    describeSet: (set: unknown, config: unknown) => Promise<{ tools: { name: string }[] }>;
  };
  const { emitTool } = (await import(path.join(dist, "emit/tool-files.js"))) as { emitTool: Side["emit"] };
  const config = await loadConfig(path.resolve(values.folder));
  sides.push({ label, emit: emitTool, tools: (await describeSet(config.sets[0], config)).tools });
}
const [a, b] = sides as [Side, Side];
const inB = new Set(b.tools.map((tool) => tool.name));
const wanted = new Set(a.tools.map((tool) => tool.name).filter((name, index) => inB.has(name) && index % step === 0));
for (const side of sides) {
  console.log(`${side.label}: ${side.tools.length} tools read, ${wanted.size} emitted per round`);
  // In A's order on both sides, so that a chunk is the same tools on each.
  const byName = new Map(side.tools.map((tool) => [tool.name, tool]));
  side.tools = a.tools.filter((tool) => wanted.has(tool.name)).map((tool) => byName.get(tool.name) as { name: string });
}

/** CPU seconds `side` takes to emit its tools from `from` up to `to`. */
async function once(side: Side, from = 0, to = side.tools.length): Promise<number> {
  const start = cpuUsage();
  for (let index = from; index < to; index++) await side.emit(side.tools[index] as { name: string });
  const used = cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** One round in chunks of `chunk` tools, the order of the two sides swapped from chunk to chunk. */
async function chunked(round: number): Promise<[number, number]> {
  let [x, y] = [0, 0];
  for (let from = 0, turn = round; from < a.tools.length; from += chunk, turn++) {
    const to = Math.min(from + chunk, a.tools.length);
    if (turn % 2 === 0) {
      x += await once(a, from, to);
      y += await once(b, from, to);
    } else {
      y += await once(b, from, to);
      x += await once(a, from, to);
    }
  }
  return [x, y];
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

// One untimed round each: V8 compiles both trees' code before anything is counted.
for (const side of sides) await once(side);
const cpu: [number[], number[]] = [[], []];
for (let round = 0; round < rounds; round++) {
  if (chunk > 0) {
    const [x, y] = await chunked(round);
    cpu[0].push(x);
    cpu[1].push(y);
  } else if (round % 2 === 0) {
    cpu[0].push(await once(a));
    cpu[1].push(await once(b));
  } else {
    cpu[1].push(await once(b));
    cpu[0].push(await once(a));
  }
  const [x, y] = [cpu[0].at(-1) as number, cpu[1].at(-1) as number];
  console.log(`round ${round + 1}: ${a.label} ${x.toFixed(2)} s, ${b.label} ${y.toFixed(2)} s, ${b.label}/${a.label} ${(y / x).toFixed(3)}`);
}
const ratios = cpu[1].map((y, index) => y / (cpu[0][index] as number));
const spread = `${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}`;
console.log(
  `median ${a.label} ${median(cpu[0]).toFixed(2)} s, ${b.label} ${median(cpu[1]).toFixed(2)} s: ${b.label}/${a.label} ${(median(cpu[1]) / median(cpu[0])).toFixed(3)} (median of round ratios ${median(ratios).toFixed(3)}, rounds ${spread})`,
);
