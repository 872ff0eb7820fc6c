// Where a one-mistake envelope's bytes are allocated (issue 25), one generated package: figure 2's
// texts (as envelope-ab.ts makes them), the process's store filled with failures first (a full
// store, where each failed call evicts a turn), then V8's sampling heap profiler over N calls with
// the garbage kept in the profile (objects collected by minor and major GCs included), so that a
// site's bytes are what it allocates per call, not what survives. A function's bytes include what
// the engine inlined into it. The harness's own share (the turn's name, the promise) is printed
// under this file's name.
//
//   npx node bench/envelope-alloc.ts .scratch/bench/small/generated [--case "repos first"] [--calls N] [--top N]
import path from "node:path";
import { Session } from "node:inspector/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { distinctTexts, ONE_MISTAKE_GITHUB, ONE_MISTAKE_INVOICE } from "./lib/bodies.ts";
import { variedMistakeTexts } from "./lib/varied-mistakes.ts";

const COUNT = 4096;
const NAMES: Readonly<Record<string, string>> = {
  invoice: "create_invoice",
  issues: "issues_create",
  pulls: "pulls_create",
  repos: "repos_create-for-authenticated-user",
};
const BODIES: Readonly<Record<string, unknown>> = { create_invoice: ONE_MISTAKE_INVOICE, ...ONE_MISTAKE_GITHUB };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { case: { type: "string", default: "repos first" }, calls: { type: "string", default: "50000" }, top: { type: "string", default: "20" } },
});
const [short, mode] = (values.case as string).split(" ");
const name = NAMES[short as string];
const calls = Number(values.calls);
if (positionals.length !== 1 || name === undefined || (mode !== "first" && mode !== "repeat") || !Number.isInteger(calls) || calls < 1) {
  console.error('usage: npx node bench/envelope-alloc.ts PACKAGE [--case "invoice|issues|pulls|repos first|repeat"] [--calls N] [--top N]');
  process.exit(2);
}

interface Outcome {
  readonly status: string;
}
interface Package {
  readonly tools: Record<
    string,
    { implement(impl: () => unknown, options: object): { call(raw: string, context: { turn: string }): Promise<Outcome> } } | undefined
  >;
  readonly MemorySink: new () => { readonly size: number; clear(): void };
}
interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

const pkg = (await import(pathToFileURL(path.join(path.resolve(positionals[0] as string), "index.js")).href)) as Package;
const body = BODIES[name];
const texts = mode === "first" ? variedMistakeTexts(name, body, COUNT).texts : distinctTexts(name, body, COUNT);
const sink = new pkg.MemorySink();
const tool = pkg.tools[name];
if (tool === undefined) throw new Error(`no tool ${name} in the package`);
const guard = tool.implement(() => "done", { ledger: sink, resolvers: { customer: () => [{ id: "cus_1", label: "Acme BV" }] } });
let next = 0;
const call = (): Promise<Outcome> => {
  if (sink.size > 1000) sink.clear();
  const text = texts[next & (COUNT - 1)] as string;
  return guard.call(text, { turn: `t${next++}` });
};
for (let index = 0; index < 30_000; index++) await call();

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
let failed = 0;
for (let index = 0; index < calls; index++) if ((await call()).status === "validation_failed") failed++;
const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: ProfileNode } };
session.disconnect();
if (failed !== calls) throw new Error(`${failed} of ${calls} calls failed validation; expected all`);

const bySite = new Map<string, number>();
let total = 0;
const visit = (node: ProfileNode): void => {
  const { functionName, url, lineNumber } = node.callFrame;
  const site = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
  total += node.selfSize;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) visit(child);
};
visit(profile.head);
console.log(`${values.case}: ${(total / calls).toFixed(0)} bytes a call (sampled every 128 bytes, ${calls} calls)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`${(bytes / calls).toFixed(0).padStart(6)}  ${site}`);
