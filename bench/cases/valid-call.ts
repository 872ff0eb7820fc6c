// Figure 1, one process: a valid call on each tool, side by side with the floor (JSON.parse +
// ajv's standalone validator for the schema as written), a hand-written guard (none for the
// ruleset: a faithful one for 21 rule kinds would be hundreds of lines), JSON.parse + zod
// safeParse of the same schema, and ajv compiled at run time. Every contender reads the next of
// 4,096 distinct texts of the body (lib/bodies.ts `validTexts`). Prints one JSON line.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { z } from "zod";
import { SMALL } from "../lib/fixtures.ts";
import { sideBySide } from "../lib/side-by-side.ts";
import { VALID, validTexts } from "../lib/bodies.ts";
import { isInvoice, isIssueCreate, isPullCreate, isRepoCreate } from "../lib/hand-guards.ts";
import { loadFloorValidator } from "../lib/floor-validator.ts";

const generated = path.join(SMALL, "generated");
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(generated, file)).href)) as T;

interface GuardedTool {
  call(raw: unknown, context: { turn: string }): Promise<{ status: string }>;
  check(raw: unknown, context: { turn: string }): { ok: boolean };
  ready(): Promise<void>;
}
interface GeneratedTool {
  readonly inputSchema: Record<string, unknown>;
  implement(impl: () => unknown, options: object): GuardedTool;
}
interface Sink {
  append(entry: unknown): void;
  flush(): Promise<unknown>;
  close(): Promise<unknown>;
  drained(): Promise<unknown>;
}
const pkg = await load<{
  tools: Record<string, GeneratedTool>;
  MemorySink: new () => { size: number; clear(): void };
  JsonlFileSink: new (options: { path: string; sync?: boolean | "interval" }) => Sink;
}>("index.js");
const { formats } = await load<{ formats: Record<string, (text: string) => boolean> }>("runtime/validate/formats.js");
// The guard's first step on its own (JSON.parse plus the checks for what JSON.parse accepts but
// changes: repeated keys, lossy numbers, lone surrogates, depth), to show what it adds to the floor.
const { parseArguments, DEFAULT_LIMITS } = await load<{
  parseArguments: (raw: unknown, finishReason: undefined, limits: object) => { ok: boolean; value?: unknown };
  DEFAULT_LIMITS: object;
}>("runtime/parse/parse.js");

/**
 * The callers' contexts, made before the timed loops: building `{turn}` is the caller's work, as
 * producing the raw text is, and the floor pays for neither. 4,096 distinct turns, reused in turn.
 */
const CONTEXTS = Array.from({ length: 4096 }, (_, index) => ({ turn: `t${index}` }));
let nextContext = 0;
const context = (): { turn: string } => CONTEXTS[nextContext++ & 4095] as { turn: string };

const GUARDS: Record<string, ((value: unknown) => boolean) | undefined> = {
  create_invoice: isInvoice,
  issues_create: isIssueCreate,
  pulls_create: isPullCreate,
  "repos_create-for-authenticated-user": isRepoCreate,
};
const results: Record<string, Record<string, number>> = {};
for (const [name, body] of Object.entries(VALID)) {
  const tool = pkg.tools[name] as GeneratedTool;
  const raw = JSON.stringify(body);
  const validate = await loadFloorValidator(generated, name, tool.inputSchema);
  if (!validate(JSON.parse(raw))) throw new Error(`${name}: the benchmark body is not valid`);
  // Every contender reads the next of 4,096 distinct texts of the body, made before the timed loops.
  const texts = validTexts(name, 4096);
  if (!texts.every((text) => validate(JSON.parse(text)))) throw new Error(`${name}: a variant of the benchmark body is not valid`);
  let at = 0;
  const text = (): string => texts[at++ & 4095] as string;
  const sink = new pkg.MemorySink();
  const options = { ledger: sink, resolvers: { customer: () => [{ id: "cus_1", label: "Acme BV" }] } };
  // Every guarded call must reach the implementation: counted here, checked after the run, so
  // the loop itself awaits the outcome and nothing more (a `.then` per call would charge the
  // guard for a promise the caller's code does not make).
  let implemented = 0;
  let calls = 0;
  const implementation = (): string => {
    implemented++;
    return "done";
  };
  const guarded = tool.implement(implementation, options);
  // The same guard with a sink that drops entries: the guard's own cost, without MemorySink's
  // storage. (MemorySink copies an entry to its JSON form only when `entries` is read, which
  // the loop never does: it counts with `size`.)
  const dropSink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
  const guardedDrop = tool.implement(implementation, { ...options, ledger: dropSink });
  const first = await guarded.call(raw, { turn: "warm" });
  if (first.status !== "ok") throw new Error(`${name}: guarded call gave ${first.status}`);
  implemented = 0;
  const zod = z.fromJSONSchema(tool.inputSchema as never);
  if (!zod.safeParse(JSON.parse(raw)).success) throw new Error(`${name}: zod rejects the body`);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const [format, check] of Object.entries(formats)) ajv.addFormat(format, check);
  const runtimeAjv = ajv.compile(tool.inputSchema);
  const guard = GUARDS[name];
  if (guard && !guard(JSON.parse(raw))) throw new Error(`${name}: the hand-written guard rejects the body`);
  results[name] = await sideBySide({
    floor: () => validate(JSON.parse(text())),
    // The floor behind the one promise any asynchronous call API returns: what `call` could
    // cost if the guard itself added nothing.
    floorAwaited: () => Promise.resolve(validate(JSON.parse(text()))),
    guarded: () => {
      // The ledger is kept in memory; empty it now and then so it measures the call, not the heap.
      if (sink.size > 1000) sink.clear();
      calls++;
      return guarded.call(text(), context());
    },
    guardedNoLedger: () => {
      calls++;
      return guardedDrop.call(text(), context());
    },
    ...(guard ? { hand: () => guard(JSON.parse(text())) } : {}),
    zod: () => zod.safeParse(JSON.parse(text())).success,
    ajvRuntime: () => runtimeAjv(JSON.parse(text())),
  });
  if (implemented !== calls) throw new Error(`${name}: ${calls - implemented} of ${calls} guarded calls did not reach the implementation`);
  Object.assign(results[name] as Record<string, number>, await withDefaultSink(tool, raw, text, validate));
}

/**
 * The guard with the default sink attached, its work charged to the calls (issue 25): the JSONL
 * file sink as a user gets it (a real file; clean lines synced once a second, `sync:
 * "interval"`), and the same sink syncing every slice (`sync: true`). The synchronous guard
 * (`check`) and `call` beside the floor, in their own pass, in batches of 2,000 calls; each
 * charged contender's batch ends, inside its timed region, with `await sink.drained()` (the
 * lines written, synced only as the sink syncs in its own course; `flush()` would add a sync), so the
 * lines its calls queued (serialised, written, synced as the sink syncs) count in its figure, in
 * wall time and in CPU time (user + system; the once-a-second sync lands in whichever batch is
 * running). The sink's CPU per line is also measured on its own: the lines of 20,000 checks,
 * appended 2,000 at a time and drained.
 */
async function withDefaultSink(tool: GeneratedTool, raw: string, text: () => string, validate: (value: unknown) => boolean): Promise<Record<string, number>> {
  const folder = mkdtempSync(path.join(tmpdir(), "toolguard-bench-valid-"));
  const sink = new pkg.JsonlFileSink({ path: path.join(folder, "default.jsonl") });
  const everySlice = new pkg.JsonlFileSink({ path: path.join(folder, "every-slice.jsonl"), sync: true });
  let implemented = 0;
  let calls = 0;
  const implementation = (): string => {
    implemented++;
    return "done";
  };
  const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };
  const guarded = tool.implement(implementation, { ledger: sink, resolvers });
  const guardedEverySlice = tool.implement(implementation, { ledger: everySlice, resolvers });
  await guarded.ready();
  // The same check with a sink that drops entries: what handing the entry to the JSONL sink adds.
  const dropSink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
  const unrecorded = tool.implement(implementation, { ledger: dropSink, resolvers });
  await unrecorded.ready();
  if (!guarded.check(raw, { turn: "warm" }).ok) throw new Error("check refused a valid body");
  if ((await guarded.call(raw, { turn: "warm-call" })).status !== "ok") throw new Error("call refused a valid body");
  if ((await guardedEverySlice.call(raw, { turn: "warm-call" })).status !== "ok") throw new Error("call refused a valid body");
  await sink.flush();
  await everySlice.flush();
  let checks = 0;
  let passed = 0;
  const check = (): { ok: boolean } => {
    checks++;
    const result = guarded.check(text(), context());
    if (result.ok) passed++;
    return result;
  };
  const drained = (): Promise<unknown> => sink.drained();
  const timed = await sideBySide(
    {
      floorForCheck: () => validate(JSON.parse(text())),
      parsedWithHazardChecks: () => {
        const parsed = parseArguments(text(), undefined, DEFAULT_LIMITS);
        return parsed.ok && validate(parsed.value);
      },
      checkedNoLedger: () => unrecorded.check(text(), context()).ok,
      checked: check,
      calledWithJsonlSink: () => {
        calls++;
        return guarded.call(text(), context());
      },
      calledSyncedEachSlice: () => {
        calls++;
        return guardedEverySlice.call(text(), context());
      },
    },
    // Batches under the sink's queue bound (4,096), so no call waits on backpressure.
    {
      settle: true,
      batch: 2_000,
      rounds: 20,
      cpu: true,
      charged: { checked: drained, calledWithJsonlSink: drained, calledSyncedEachSlice: () => everySlice.flush() },
    },
  );
  const smoke = process.env["TOOLGUARD_BENCH_SMOKE"] === "1";
  const lines = smoke ? 20 : 20_000;
  const chunk = smoke ? 20 : 2_000;
  let wallNs = 0;
  let cpuNs = 0;
  for (let done = 0; done < lines; done += chunk) {
    for (let index = 0; index < chunk; index++) check();
    // The lines just appended are pending; draining them is the sink's deferred work.
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await sink.drained();
    wallNs += Number(process.hrtime.bigint() - start);
    const used = process.cpuUsage(cpu);
    cpuNs += (used.user + used.system) * 1000;
  }
  if (implemented !== calls + 2) throw new Error(`${calls + 2 - implemented} of ${calls + 2} calls with the JSONL sink did not reach the implementation`);
  if (passed !== checks) throw new Error(`${checks - passed} of ${checks} checks refused a valid body`);
  await sink.close();
  await everySlice.close();
  rmSync(folder, { recursive: true, force: true });
  return { ...timed, sinkNsPerLine: wallNs / lines, sinkCpuNsPerLine: cpuNs / lines };
}

console.log(JSON.stringify(results));
