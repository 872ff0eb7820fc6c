// Figure 1's "with the default sink, charged" rows for two or more generated packages side by
// side in one process, for A/B work on the ledger line: per body, the floor (JSON.parse + the
// tool's validator) and, per package, `check` and `call` with that package's own default JSONL
// sink (a real file), each timed batch of 2,000 ending with a wait for the sink's own drain, so
// the lines the batch queued (serialised, written, and synced as that package's sink syncs in
// its own course: each slice before 2026-12-05, then once a second) count in its CPU. Each package's ratio to
// the floor, CPU (user + system), and wall. Name a package twice for an A/A pair: the noise.
//
//   npx node -e 'import("./bench/lib/fixtures.ts").then((m) => m.buildFixtures({ full: false }))'
//   cp -r .scratch/bench/small/generated .scratch/ab/base   # before the change
//   (change the runtime, build the fixtures again, copy them to .scratch/ab/now)
//   npx node bench/charged-ab.ts now=.scratch/ab/now base=.scratch/ab/base now2=.scratch/ab/now base2=.scratch/ab/base
//
// Options: --rounds N (40), --tools a,b (figure 1's four small bodies). The machine's drift between
// processes is larger than within one: run it twice or more, the sides' order rotated.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { validTexts } from "./lib/bodies.ts";
import { SMALL } from "./lib/fixtures.ts";
import { loadFloorValidator } from "./lib/floor-validator.ts";
import { sideBySide } from "./lib/side-by-side.ts";

const SMALL_BODIES = ["issues_create", "pulls_create", "repos_create-for-authenticated-user", "create_invoice"];
const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string", default: "40" }, tools: { type: "string" } } });
const rounds = Number(values.rounds);
if (positionals.length < 2 || positionals.some((spec) => !/^[^=]+=.+$/.test(spec)) || !Number.isInteger(rounds) || rounds < 1) {
  console.error("usage: npx node bench/charged-ab.ts [--rounds N] [--tools a,b] LABEL=PACKAGE LABEL=PACKAGE ... (generated packages)");
  process.exit(2);
}
const tools = values.tools === undefined ? SMALL_BODIES : values.tools.split(",");

interface Sink {
  flush(): Promise<unknown>;
  close(): Promise<unknown>;
  /** Since 2026-12-05; before, `flush()` was the drain (each slice synced as it was written). */
  drained?(): Promise<unknown>;
}
interface Guarded {
  check(raw: string, context: { turn: string }): { ok: boolean };
  call(raw: string, context: { turn: string }): Promise<unknown>;
  ready(): Promise<void>;
}
interface Package {
  readonly tools: Record<string, { readonly inputSchema: Record<string, unknown>; implement(impl: () => unknown, options: object): Guarded } | undefined>;
  readonly JsonlFileSink: new (options: { path: string }) => Sink;
}

const sides: { label: string; pkg: Package }[] = [];
for (const spec of positionals) {
  const label = spec.slice(0, spec.indexOf("="));
  const folder = path.resolve(spec.slice(spec.indexOf("=") + 1));
  sides.push({ label, pkg: (await import(pathToFileURL(path.join(folder, "index.js")).href)) as Package });
}

/** 4,096 distinct turns, made before the timed loops (the caller's work, as the raw text is). */
const CONTEXTS = Array.from({ length: 4096 }, (_, index) => ({ turn: `t${index}` }));
let nextContext = 0;
const context = (): { turn: string } => CONTEXTS[nextContext++ & 4095] as { turn: string };

const folder = mkdtempSync(path.join(tmpdir(), "toolguard-charged-ab-"));
for (const name of tools) {
  const first = sides[0]?.pkg.tools[name];
  if (first === undefined) throw new Error(`no tool ${name}`);
  const validate = await loadFloorValidator(path.join(SMALL, "generated"), name, first.inputSchema);
  const texts = validTexts(name, 4096);
  let at = 0;
  const text = (): string => texts[at++ & 4095] as string;
  const contenders: Record<string, () => unknown> = { floor: () => validate(JSON.parse(text())) };
  const charged: Record<string, () => Promise<unknown>> = {};
  const sinks: Sink[] = [];
  for (const { label, pkg } of sides) {
    const sink = new pkg.JsonlFileSink({ path: path.join(folder, `${label}-${name}.jsonl`) });
    sinks.push(sink);
    const guarded = (pkg.tools[name] ?? first).implement(() => "done", { ledger: sink, resolvers });
    await guarded.ready();
    if (!guarded.check(texts[0] as string, { turn: "warm" }).ok) throw new Error(`${label}: ${name} refused a valid body`);
    await sink.flush();
    contenders[`check ${label}`] = () => guarded.check(text(), context()).ok;
    contenders[`call ${label}`] = () => guarded.call(text(), context());
    const drained = (): Promise<unknown> => sink.drained?.() ?? sink.flush();
    charged[`check ${label}`] = drained;
    charged[`call ${label}`] = drained;
  }
  // Batches under the sink's queue bound (4,096), so no call waits on backpressure.
  const result = await sideBySide(contenders, { settle: true, batch: 2000, rounds, cpu: true, charged });
  const floorCpu = result["floor:cpu"] as number;
  const cells = Object.keys(contenders)
    .filter((key) => key !== "floor")
    .map(
      (key) =>
        `${key} ${((result[`${key}:cpu`] as number) / floorCpu).toFixed(2)}x (wall ${((result[key] as number) / (result["floor"] as number)).toFixed(2)}x)`,
    );
  console.log(`${name.padEnd(36)} floor ${floorCpu.toFixed(0)} ns CPU | ${cells.join(" | ")}`);
  for (const sink of sinks) await sink.close();
}
rmSync(folder, { recursive: true, force: true });
