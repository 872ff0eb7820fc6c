// The workers' share of generation (emitTool, the passes over ajv's code, the types, the tool
// module) of two built trees side by side in one process, for A/B work on generation speed:
// a whole `generate` also reads the spec and spreads over threads, and its CPU on a loaded
// machine moves by 15% from run to run; here both trees emit the same tools in alternating
// rounds (A B, B A, ...) on one thread, so the machine's drift falls on both.
//
//   npm run build   # in each tree, untimed
//   npx node bench/emit-ab.ts --folder DIR --rounds 6 --step 6 base=/path/to/old-tree now=.
//
// DIR holds a toolguard.config.json (its first set is read); each tree reads it with its own
// reader and emits the tools both read (by name), every STEP-th. Prints CPU (user + system) per
// round and the medians.
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
  options: { folder: { type: "string" }, rounds: { type: "string", default: "6" }, step: { type: "string", default: "6" } },
});
if (!values.folder || positionals.length !== 2 || positionals.some((spec) => !spec.includes("="))) {
  console.error("usage: npx node bench/emit-ab.ts --folder DIR [--rounds N] [--step N] LABEL=TREE LABEL=TREE (both trees built)");
  process.exit(2);
}
const rounds = Number(values.rounds);
const step = Number(values.step);

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
  side.tools = side.tools.filter((tool) => wanted.has(tool.name));
}

async function once(side: Side): Promise<number> {
  const start = cpuUsage();
  for (const tool of side.tools) await side.emit(tool);
  const used = cpuUsage(start);
  return (used.user + used.system) / 1e6;
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
  if (round % 2 === 0) {
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
console.log(
  `median ${a.label} ${median(cpu[0]).toFixed(2)} s, ${b.label} ${median(cpu[1]).toFixed(2)} s: ${b.label}/${a.label} ${(median(cpu[1]) / median(cpu[0])).toFixed(3)} (median of round ratios ${median(ratios).toFixed(3)})`,
);
