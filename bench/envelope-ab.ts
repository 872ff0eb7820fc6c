// Figure 2's one-mistake envelope, two or more generated packages side by side in one process,
// for A/B work on the failure path (issue 25): each package's own tool and MemorySink, the same
// texts (lib/bodies.ts, lib/varied-mistakes.ts: a repeated and a first-time mistake per body),
// and ajv's floor (JSON.parse + ajv's error list, lib/floor-validator.ts) in the same rotation.
// Before any timing every side answers all 4,096 texts of each case and the envelopes must be
// byte-identical to the first side's (a change that says something else is not an A/B); then
// each store is filled with failures (a long-running process's full store, 10,000 open chains,
// where each failed call evicts one), and per round each side makes a batch of calls, CPU timed
// (user + system), in rotating order. Name a package twice for an A/A pair: the noise.
//
//   npx node -e 'import("./bench/lib/fixtures.ts").then((m) => m.buildFixtures({ full: false }))'
//   cp -r .scratch/bench/small/generated .scratch/ab/base   # before the change; again as base2
//   (change the runtime, build the fixtures again)
//   npx node bench/envelope-ab.ts base=.scratch/ab/base base2=.scratch/ab/base2 now=.scratch/bench/small/generated
//
// Options: --rounds N (400), --batch N (200 calls a side a round, figure 2's), --fill N (12,000
// failures before timing), --cases "repos first,pulls repeat" (all eight by default), --no-check
// (hand-edited diagnostic copies whose envelopes differ on purpose). Prints per case each side's
// median CPU ns per call, its median per-round ratio to the first side, and the floor's ratio.
// The batches are short: a scavenge falls in few of them, so the medians leave the collector out.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { distinctTexts, ONE_MISTAKE_GITHUB, ONE_MISTAKE_INVOICE } from "./lib/bodies.ts";
import { type FloorValidator, loadFloorValidator } from "./lib/floor-validator.ts";
import { median } from "./lib/stats.ts";
import { variedMistakeTexts } from "./lib/varied-mistakes.ts";

const COUNT = 4096;
const BODIES: Readonly<Record<string, unknown>> = { create_invoice: ONE_MISTAKE_INVOICE, ...ONE_MISTAKE_GITHUB };
const SHORT: Readonly<Record<string, string>> = {
  create_invoice: "invoice",
  issues_create: "issues",
  pulls_create: "pulls",
  "repos_create-for-authenticated-user": "repos",
};
const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "400" },
    batch: { type: "string", default: "200" },
    fill: { type: "string", default: "12000" },
    cases: { type: "string" },
    "no-check": { type: "boolean", default: false },
  },
});
if (positionals.length < 2 || positionals.some((spec) => !/^[^=]+=.+$/.test(spec))) {
  console.error("usage: npx node bench/envelope-ab.ts [--rounds N] [--batch N] [--fill N] [--cases a,b] [--no-check] LABEL=PACKAGE LABEL=PACKAGE ...");
  process.exit(2);
}
const numbers = { rounds: Number(values.rounds), batch: Number(values.batch), fill: Number(values.fill) };
for (const [option, value] of Object.entries(numbers)) {
  if (!Number.isInteger(value) || value < (option === "fill" ? 0 : 1)) {
    console.error(`--${option} must be a whole number of at least ${option === "fill" ? 0 : 1}, not ${values[option as keyof typeof numbers]}`);
    process.exit(2);
  }
}

interface Outcome {
  readonly status: string;
}
interface Tool {
  call(raw: string, context: { turn: string }): Promise<Outcome>;
}
interface Package {
  readonly tools: Record<string, { readonly inputSchema: Record<string, unknown>; implement(impl: () => unknown, options: object): Tool } | undefined>;
  readonly MemorySink: new () => { readonly size: number; clear(): void };
}
interface Side {
  readonly label: string;
  readonly folder: string;
  readonly pkg: Package;
}

const allCases = Object.entries(BODIES).flatMap(([name, body]) => [
  { label: `${SHORT[name]} first`, name, texts: () => variedMistakeTexts(name, body, COUNT).texts },
  { label: `${SHORT[name]} repeat`, name, texts: () => distinctTexts(name, body, COUNT) },
]);
const wanted = values.cases?.split(",").map((label) => label.trim());
const unknown = wanted?.filter((label) => !allCases.some((known) => known.label === label)) ?? [];
if (unknown.length > 0) {
  console.error(
    `--cases: no case ${unknown.map((label) => JSON.stringify(label)).join(", ")}; the cases are ${allCases.map((known) => known.label).join(", ")}`,
  );
  process.exit(2);
}
const cases = wanted === undefined ? allCases : allCases.filter((known) => wanted.includes(known.label));

const sides: Side[] = [];
for (const spec of positionals) {
  const at = spec.indexOf("=");
  const folder = path.resolve(spec.slice(at + 1));
  if (!existsSync(path.join(folder, "index.js"))) {
    console.error(`${spec}: ${folder} holds no generated package (no index.js)`);
    process.exit(2);
  }
  const pkg = (await import(pathToFileURL(path.join(folder, "index.js")).href)) as Package;
  sides.push({ label: spec.slice(0, at), folder, pkg });
}

/** A side's bound tool on a case's texts: `call()` sends the next text in a fresh turn (a chain's first attempt). */
function runner(side: Side, name: string, texts: readonly string[]) {
  const tool = side.pkg.tools[name];
  if (tool === undefined) throw new Error(`${side.label} (${side.folder}): no tool ${name}`);
  const sink = new side.pkg.MemorySink();
  const guard = tool.implement(() => "done", { ledger: sink, resolvers });
  let next = 0;
  return {
    guard,
    inputSchema: tool.inputSchema,
    call: (): Promise<Outcome> => {
      if (sink.size > 1000) sink.clear();
      const text = texts[next & (COUNT - 1)] as string;
      return guard.call(text, { turn: `t${next++}` });
    },
  };
}

/** Every text's envelope from every side, compared with the first side's. */
async function sameEnvelopes(label: string, texts: readonly string[], runners: readonly ReturnType<typeof runner>[]): Promise<void> {
  for (const [index, text] of texts.entries()) {
    const outcomes = await Promise.all(runners.map((each) => each.guard.call(text, { turn: `check-${index}` })));
    const first = JSON.stringify(outcomes[0]);
    for (const [at, outcome] of outcomes.entries()) {
      const said = JSON.stringify(outcome);
      if (said !== first) throw new Error(`${label}, text ${index}: ${sides[at]?.label}'s envelope differs from ${sides[0]?.label}'s:\n${first}\n${said}`);
    }
  }
}

for (const { label, name, texts: make } of cases) {
  const texts = make();
  const runners = sides.map((side) => runner(side, name, texts));
  if (!values["no-check"]) await sameEnvelopes(label, texts, runners);
  const validate: FloorValidator = await loadFloorValidator((sides[0] as Side).folder, name, (runners[0] as ReturnType<typeof runner>).inputSchema);
  let floorNext = 0;
  const floor = (): unknown => {
    const value = JSON.parse(texts[floorNext++ & (COUNT - 1)] as string);
    return validate(value) ? undefined : validate.errors;
  };
  for (const each of runners) for (let call = 0; call < numbers.fill; call++) await each.call();
  // The floor is the last contender: it rotates with the sides.
  const samples = [...sides, undefined].map((): number[] => []);
  let sink = 0;
  for (let round = -20; round < numbers.rounds; round++) {
    for (let turn = 0; turn < samples.length; turn++) {
      const index = (turn + Math.max(round, 0)) % samples.length;
      const each = runners[index];
      const start = process.cpuUsage();
      if (each === undefined) for (let call = 0; call < numbers.batch; call++) sink += floor() === undefined ? 0 : 1;
      else for (let call = 0; call < numbers.batch; call++) sink += (await each.call()).status.length;
      const used = process.cpuUsage(start);
      if (round >= 0) samples[index]?.push(((used.user + used.system) * 1000) / numbers.batch);
    }
  }
  if (sink === 0) throw new Error(`${label}: no call answered`);
  const first = samples[0] as number[];
  const floorNs = median(samples[sides.length] as number[]);
  const cells = sides.map((side, index) => {
    const own = samples[index] as number[];
    const ratio = median(own.map((ns, round) => ns / (first[round] as number)));
    return `${side.label} ${median(own).toFixed(0)} ns (${ratio.toFixed(3)}, ${(median(own) / floorNs).toFixed(2)}x)`;
  });
  console.log(`${label.padEnd(15)} floor ${floorNs.toFixed(0)} ns  ${cells.join("  ")}`);
}
