// `npm run bench`: builds the benchmark packages, runs each figure's case in fresh child
// processes, and reports medians over processes of ratios measured side by side in one process.
// Prints a table and writes bench/results/latest.json.
//   npm run bench                     every figure, 5 processes each (generation: 3)
//   npm run bench -- --only valid,size  some figures (valid, invalid, cold, generation, size, telemetry, changes, hostile, ledger, stores, overload)
//   npm run bench -- --runs 3           fewer processes per figure
//   npm run bench -- --smoke            every case once with tiny batches, nothing written: checks
//                                       that the cases run and their own checks hold (the tests do)
import { cpus, tmpdir } from "node:os";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildFixtures } from "./lib/fixtures.ts";
import { REPO, runCase } from "./lib/processes.ts";
import { fixed, median } from "./lib/stats.ts";

const FIGURES = ["valid", "invalid", "cold", "generation", "size", "telemetry", "changes", "hostile", "ledger", "stores", "report", "overload"] as const;
const { only, runs, generationRuns, smoke } = readArguments();
const results: Record<string, unknown> = {};
const lines: string[] = [];
const medianOf = <T>(samples: readonly T[], pick: (sample: T) => number): number => median(samples.map(pick));
const say = (line: string): void => {
  lines.push(line);
  console.log(line);
};

buildFixtures({ full: only.has("cold") || only.has("generation") || only.has("size") });
const cases = (name: string): string => path.join(REPO, "bench/cases", name);

if (only.has("valid")) {
  type Valid = Record<string, Record<string, number>>;
  const samples = Array.from({ length: runs }, () => runCase<Valid>(cases("valid-call.ts")));
  const figure: Record<string, unknown> = {};
  say(
    "\n1. Valid call (ns per call; ratio = contender / floor, wall / CPU; the default JSONL sink's work for the calls (serialise, write, and its once-a-second fdatasync of clean lines) charged inside each timed batch; targets: the whole valid call with its line <= 2.25 x floor, the sink's CPU per line <= 1 us under 500 bytes, <= 2 us on the ruleset; zod >= 1.5 x guarded)",
  );
  say(
    "| tool | floor ns | floor, awaited | guarded, MemorySink | guarded, no ledger | parse with hazard checks + validate | check, no ledger | check + default sink, charged | call + default sink, charged | call + sink syncing every slice, charged | sink CPU ns per line (wall) | hand-written | zod | ajv at run time | zod / guarded |",
  );
  say("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const tool of Object.keys(samples[0] ?? {})) {
    const ns = (key: string): number => medianOf(samples, (sample) => sample[tool]?.[key] ?? Number.NaN);
    const r = (key: string): number => medianOf(samples, (sample) => (sample[tool]?.[key] ?? Number.NaN) / (sample[tool]?.floor ?? Number.NaN));
    const zodOverGuarded = medianOf(samples, (sample) => (sample[tool]?.zod ?? Number.NaN) / (sample[tool]?.guarded ?? Number.NaN));
    // check ran in its own pass beside its own floor: its ratio is to that floor.
    const checked = medianOf(samples, (sample) => (sample[tool]?.checked ?? Number.NaN) / (sample[tool]?.floorForCheck ?? Number.NaN));
    const called = medianOf(samples, (sample) => (sample[tool]?.calledWithJsonlSink ?? Number.NaN) / (sample[tool]?.floorForCheck ?? Number.NaN));
    // Where check's time goes, beside the same floor: the first step alone, then check without the ledger.
    const parsedWithHazards = medianOf(samples, (sample) => (sample[tool]?.parsedWithHazardChecks ?? Number.NaN) / (sample[tool]?.floorForCheck ?? Number.NaN));
    const checkedNoLedger = medianOf(samples, (sample) => (sample[tool]?.checkedNoLedger ?? Number.NaN) / (sample[tool]?.floorForCheck ?? Number.NaN));
    const cpuRatio = (key: string): number =>
      medianOf(samples, (sample) => (sample[tool]?.[`${key}:cpu`] ?? Number.NaN) / (sample[tool]?.["floorForCheck:cpu"] ?? Number.NaN));
    const everySlice = medianOf(samples, (sample) => (sample[tool]?.calledSyncedEachSlice ?? Number.NaN) / (sample[tool]?.floorForCheck ?? Number.NaN));
    const charged = (wall: number, key: string): string => `${fixed(wall)}x / ${fixed(cpuRatio(key))}x`;
    const checkTarget = 2.25;
    const lineTarget = tool === "repos_create-org-ruleset" ? 2000 : 1000;
    figure[tool] = {
      ns: Object.fromEntries(
        [
          "floor",
          "floorAwaited",
          "guarded",
          "guardedNoLedger",
          "floorForCheck",
          "parsedWithHazardChecks",
          "checkedNoLedger",
          "checked",
          "calledWithJsonlSink",
          "calledSyncedEachSlice",
          "floorForCheck:cpu",
          "checked:cpu",
          "calledWithJsonlSink:cpu",
          "calledSyncedEachSlice:cpu",
          "sinkNsPerLine",
          "sinkCpuNsPerLine",
          "hand",
          "zod",
          "ajvRuntime",
        ].map((key) => [key, ns(key)]),
      ),
      ratioToFloor: {
        ...Object.fromEntries(["floorAwaited", "guarded", "guardedNoLedger", "hand", "zod", "ajvRuntime"].map((key) => [key, r(key)])),
        parsedWithHazardChecks: parsedWithHazards,
        checkedNoLedger,
        checkedWithJsonlSink: checked,
        calledWithJsonlSink: called,
        calledSyncedEachSlice: everySlice,
      },
      cpuRatioToFloor: {
        checkedWithJsonlSink: cpuRatio("checked"),
        calledWithJsonlSink: cpuRatio("calledWithJsonlSink"),
        calledSyncedEachSlice: cpuRatio("calledSyncedEachSlice"),
      },
      zodOverGuarded,
      targets: {
        checkWithinTarget: checked <= checkTarget,
        callWithinTarget: called <= checkTarget,
        checkTarget,
        lineTarget,
        sinkCpuPerLineWithinTarget: ns("sinkCpuNsPerLine") <= lineTarget,
        zodAtLeast15xSlower: zodOverGuarded >= 1.5,
      },
    };
    const times = (key: string): string => (Number.isFinite(r(key)) ? `${fixed(r(key))}x` : "–");
    say(
      `| ${tool} | ${fixed(ns("floor"), 0)} | ${times("floorAwaited")} | ${times("guarded")} | ${times("guardedNoLedger")} | ${fixed(parsedWithHazards)}x | ${fixed(checkedNoLedger)}x | ${charged(checked, "checked")} | ${charged(called, "calledWithJsonlSink")} | ${charged(everySlice, "calledSyncedEachSlice")} | ${fixed(ns("sinkCpuNsPerLine"), 0)} (${fixed(ns("sinkNsPerLine"), 0)}) | ${times("hand")} | ${times("zod")} | ${times("ajvRuntime")} | ${fixed(zodOverGuarded)} |`,
    );
  }
  results.validCall = figure;
}

if (only.has("invalid")) {
  type Invalid = Record<string, Record<string, number>>;
  const samples = Array.from({ length: runs }, () => runCase<Invalid>(cases("invalid-call.ts")));
  const figure: Record<string, unknown> = {};
  say(
    "\n2. Invalid call (target: envelope <= 3 x JSON.parse + ajv errors, one mistake and several; a one-mistake body with the same wrong value in every text and with a new one in each; with the default JSONL sink the failure's entry is written and fdatasynced before the envelope returns: wall / CPU)",
  );
  say(
    "| case | ajv errors | envelope errors | distinct wrong values | JSON.parse + ajv errors, wall / CPU | full envelope, wall / CPU | ratio, wall / CPU | envelope, default sink (written through) | envelope, failures batched, flush charged | written through / batched |\n|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const tool of Object.keys(samples[0] ?? {})) {
    const pick = (key: string): number => medianOf(samples, (sample) => sample[tool]?.[key] ?? Number.NaN);
    const over = (key: string, base: string): number =>
      medianOf(samples, (sample) => (sample[tool]?.[key] ?? Number.NaN) / (sample[tool]?.[base] ?? Number.NaN));
    const ratio = over("envelope", "ajvErrors");
    // CPU (user + system) beside wall: on a shared machine a batch's wall time includes waiting for a core.
    const cpuRatio = over("envelope:cpu", "ajvErrors:cpu");
    const errors = { ajv: samples[0]?.[tool]?.ajvErrorCount, envelope: samples[0]?.[tool]?.envelopeErrorCount };
    // A one-mistake case's distinct wrong values over its 4,096 texts: 1 is a repeated mistake, whose
    // message the envelope remembers; hundreds price a first-time one (lib/varied-mistakes.ts).
    const wrongValues = samples[0]?.[tool]?.wrongValues;
    figure[tool] = {
      ns: Object.fromEntries(
        [
          "ajvErrors",
          "envelope",
          "ajvErrors:cpu",
          "envelope:cpu",
          "envelopeWrittenThrough",
          "envelopeBatched",
          "envelopeWrittenThrough:cpu",
          "envelopeBatched:cpu",
        ].map((key) => [key, pick(key)]),
      ),
      errors,
      ...(wrongValues === undefined ? {} : { wrongValues }),
      ratio,
      cpuRatio,
      writtenThroughOverBatched: { wall: over("envelopeWrittenThrough", "envelopeBatched"), cpu: over("envelopeWrittenThrough:cpu", "envelopeBatched:cpu") },
      targets: { within3x: ratio <= 3, within3xCpu: cpuRatio <= 3 },
    };
    const us = (key: string): string => `${fixed(pick(key) / 1000)} / ${fixed(pick(`${key}:cpu`) / 1000)} us`;
    say(
      `| ${tool} | ${errors.ajv} | ${errors.envelope} | ${wrongValues ?? "–"} | ${fixed(pick("ajvErrors"), 0)} / ${fixed(pick("ajvErrors:cpu"), 0)} ns | ${fixed(pick("envelope"), 0)} / ${fixed(pick("envelope:cpu"), 0)} ns | ${fixed(ratio)}x / ${fixed(cpuRatio)}x | ${us("envelopeWrittenThrough")} | ${us("envelopeBatched")} | ${fixed(over("envelopeWrittenThrough", "envelopeBatched"))}x / ${fixed(over("envelopeWrittenThrough:cpu", "envelopeBatched:cpu"))}x |`,
    );
  }
  results.invalidCall = figure;
}

if (only.has("cold")) {
  type Cold = { ms: number; readyMs: number; ownCpuMs: number; ready: number };
  const start = (mode: string, env: Record<string, string> = {}): Cold => runCase<Cold>(cases("cold-start.ts"), [mode], env);
  /** Medians over `runs` rounds of fresh processes, one per mode, side by side. */
  const measure = (env: Record<string, string> = {}) => {
    const rounds = Array.from({ length: runs }, () => ({ github: start("github", env), ten: start("ten", env), ajv: start("ajv", env) }));
    return {
      tools: { github: rounds[0]?.github.ready, ten: rounds[0]?.ten.ready },
      ms: { github: medianOf(rounds, (r) => r.github.ms), ten: medianOf(rounds, (r) => r.ten.ms), ajvRuntime: medianOf(rounds, (r) => r.ajv.ms) },
      readyMs: {
        github: medianOf(rounds, (r) => r.github.readyMs),
        ten: medianOf(rounds, (r) => r.ten.readyMs),
        ajvRuntime: medianOf(rounds, (r) => r.ajv.readyMs),
      },
      ownCpuMs: {
        github: medianOf(rounds, (r) => r.github.ownCpuMs),
        ten: medianOf(rounds, (r) => r.ten.ownCpuMs),
        ajvRuntime: medianOf(rounds, (r) => r.ajv.ownCpuMs),
      },
      speedup: medianOf(rounds, (r) => r.ajv.ms / r.github.ms),
      githubOverTen: medianOf(rounds, (r) => r.github.ms / r.ten.ms),
      cpuSpeedup: medianOf(rounds, (r) => r.ajv.ownCpuMs / r.github.ownCpuMs),
      cpuGithubOverTen: medianOf(rounds, (r) => r.github.ownCpuMs / r.ten.ownCpuMs),
    };
  };
  start("dump");
  const plain = measure();
  // The same starts again with Node's on-disk compile cache (NODE_COMPILE_CACHE), primed by one
  // untimed start of each mode: what a deployment that sets it gets from the second start on.
  const cacheDir = mkdtempSync(path.join(tmpdir(), "toolguard-bench-compile-cache-"));
  let compileCache: ReturnType<typeof measure>;
  try {
    const cached = { NODE_COMPILE_CACHE: cacheDir };
    for (const mode of ["github", "ten", "ajv"]) start(mode, cached);
    compileCache = measure(cached);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  results.coldStart = {
    ...plain,
    withCompileCache: compileCache,
    targets: { atLeast10x: plain.speedup >= 10, within2xOfTenTools: plain.githubOverTen <= 2 },
  };
  say(`\n3. Cold start to the first outcome, every tool bound, in a fresh process (targets: >= 10x ajv; GitHub within 2x of ten tools)`);
  say("| start | GitHub, 1,221 tools | ten tools | ajv compile at run time | ajv / GitHub | GitHub / ten |\n|---|---|---|---|---|---|");
  for (const [label, row] of [
    ["plain", plain],
    ["NODE_COMPILE_CACHE, warm", compileCache],
  ] as const) {
    say(
      `| ${label}, wall | ${fixed(row.ms.github, 0)} ms | ${fixed(row.ms.ten, 0)} ms | ${fixed(row.ms.ajvRuntime, 0)} ms | ${fixed(row.speedup, 1)}x | ${fixed(row.githubOverTen)}x |`,
    );
    say(
      `| ${label}, CPU | ${fixed(row.ownCpuMs.github, 0)} ms | ${fixed(row.ownCpuMs.ten, 0)} ms | ${fixed(row.ownCpuMs.ajvRuntime, 0)} ms | ${fixed(row.cpuSpeedup, 1)}x | ${fixed(row.cpuGithubOverTen)}x |`,
    );
  }
}

if (only.has("generation")) {
  type Run = { wallMs: number; peakRssMb: number };
  type Generation = { full: Run; unchanged: Run; oneChanged: Run; openapiTypescript: Run };
  const samples = Array.from({ length: generationRuns }, () => runCase<Generation>(cases("generation.ts")));
  const m = (key: keyof Generation, field: keyof Run): number => medianOf(samples, (sample) => sample[key][field]);
  const ratio = medianOf(samples, (sample) => sample.full.wallMs / sample.openapiTypescript.wallMs);
  results.generation = {
    runs: generationRuns,
    wallMs: {
      full: m("full", "wallMs"),
      unchanged: m("unchanged", "wallMs"),
      oneChanged: m("oneChanged", "wallMs"),
      openapiTypescript: m("openapiTypescript", "wallMs"),
    },
    peakRssMb: {
      full: m("full", "peakRssMb"),
      unchanged: m("unchanged", "peakRssMb"),
      oneChanged: m("oneChanged", "peakRssMb"),
      openapiTypescript: m("openapiTypescript", "peakRssMb"),
    },
    fullOverOpenapiTypescript: ratio,
    targets: {
      fullWithin15x: ratio <= 1.5,
      fullUnder1GB: m("full", "peakRssMb") < 1024,
      unchangedUnder1s: m("unchanged", "wallMs") < 1000,
      oneChangedUnder2s: m("oneChanged", "wallMs") < 2000,
    },
  };
  say(
    `\n4. Generation, GitHub's spec (${samples[0] ? "1,221 tools" : ""}; targets: full <= 1.5 x openapi-typescript and < 1 GB; unchanged < 1 s; one changed < 2 s)`,
  );
  say("| run | wall | peak RSS |\n|---|---|---|");
  for (const [label, key] of [
    ["toolguard generate, empty cache", "full"],
    ["re-run, nothing changed", "unchanged"],
    ["re-run, one request body changed", "oneChanged"],
    ["openapi-typescript 7.13.0", "openapiTypescript"],
  ] as const) {
    say(`| ${label} | ${fixed(m(key, "wallMs") / 1000)} s | ${fixed(m(key, "peakRssMb"), 0)} MB |`);
  }
  say(`full / openapi-typescript: ${fixed(ratio)}x`);
}

if (only.has("size")) {
  const size = runCase<Record<string, number | string>>(cases("size.ts"));
  results.size = size;
  say("\n5. Size of the GitHub package");
  say(
    `| tools | per tool, median | per tool, max | shared validator modules (once) | runtime (once) | package | package per tool | package, gzip | helpers duplicated |\n|---|---|---|---|---|---|---|---|---|`,
  );
  const kb = (bytes: unknown): string => `${fixed(Number(bytes) / 1024, 1)} KB`;
  say(
    `| ${size.tools} | ${kb(size.medianToolBytes)} | ${kb(size.maxToolBytes)} (${size.maxTool}) | ${size.sharedModules}: ${fixed(Number(size.sharedBytes) / 1048576, 1)} MB | ${kb(size.runtimeBytes)} | ${fixed(Number(size.packageBytes) / 1048576, 1)} MB | ${kb(size.packageBytesPerTool)} | ${fixed(Number(size.packageGzipBytes) / 1048576, 2)} MB | ${size.helpersDuplicated} |`,
  );
}

if (only.has("telemetry")) {
  type Telemetry = { floor: number; unwrapped: number; none: number; metrics: number; traces: number };
  const samples = Array.from({ length: runs }, () => runCase<Telemetry>(cases("telemetry-cost.ts")));
  const wrapper = medianOf(samples, (sample) => sample.none / sample.unwrapped);
  const plain = medianOf(samples, (sample) => sample.none / sample.floor);
  const metricsOnly = medianOf(samples, (sample) => sample.metrics / sample.none);
  const traced = medianOf(samples, (sample) => sample.traces / sample.none);
  const metricsNs = medianOf(samples, (sample) => sample.metrics - sample.none);
  const tracesNs = medianOf(samples, (sample) => sample.traces - sample.none);
  results.telemetry = {
    noSdk: { wrapperOverBare: wrapper, guardedOverFloor: plain, guardedNs: medianOf(samples, (sample) => sample.none) },
    metrics: { overNoSdk: metricsOnly, extraNsPerCall: metricsNs },
    metricsAndTraces: { overNoSdk: traced, extraNsPerCall: tracesNs },
  };
  say(
    "\n6. Telemetry on the valid path, the invoice, side by side (ratios to the same call with no SDK; no SDK: the tracing wrapper must cost nothing measurable)",
  );
  say(
    "| no SDK: guarded / same guard unwrapped | no SDK: guarded / floor | metrics SDK / no SDK | metrics + traces SDK / no SDK | metrics: extra per call | metrics + traces: extra per call |\n|---|---|---|---|---|---|",
  );
  say(`| ${fixed(wrapper)}x | ${fixed(plain)}x | ${fixed(metricsOnly)}x | ${fixed(traced)}x | ${fixed(metricsNs, 0)} ns | ${fixed(tracesNs, 0)} ns |`);
}

if (only.has("changes")) {
  type Changes = {
    diff: { wallMs: number; peakRssMb: number; changedTools: number; unchangedTools: number };
    watch: { rounds: number; firstChangePrintedMs: number; printedMs: number; observedMs: number; rerunMs: number; observedOverRerun: number };
  };
  const samples = Array.from({ length: generationRuns }, () => runCase<Changes>(cases("schema-changes.ts"), [], smoke ? { TOOLGUARD_BENCH_ROUNDS: "1" } : {}));
  const diffMs = medianOf(samples, (sample) => sample.diff.wallMs);
  const ratio = medianOf(samples, (sample) => sample.watch.observedOverRerun);
  results.changes = {
    runs: generationRuns,
    diff: {
      wallMs: diffMs,
      peakRssMb: medianOf(samples, (sample) => sample.diff.peakRssMb),
      changedTools: samples[0]?.diff.changedTools,
      unchangedTools: samples[0]?.diff.unchangedTools,
    },
    watch: {
      firstChangePrintedMs: medianOf(samples, (sample) => sample.watch.firstChangePrintedMs),
      printedMs: medianOf(samples, (sample) => sample.watch.printedMs),
      observedMs: medianOf(samples, (sample) => sample.watch.observedMs),
      rerunMs: medianOf(samples, (sample) => sample.watch.rerunMs),
      observedOverRerun: ratio,
    },
    targets: { diffUnder10s: diffMs < 10_000, watchWithinRerun: ratio <= 1.2 },
  };
  say(
    "\n7. Schema changes on GitHub's spec (targets: diff of two published versions < 10 s; --watch regenerates one changed body in the time of a cached re-run)",
  );
  say("| run | wall |\n|---|---|");
  say(`| toolguard diff, @octokit/openapi 22.0.0 -> pinned (${samples[0]?.diff.changedTools} tools changed) | ${fixed(diffMs / 1000)} s |`);
  say(
    `| generate --watch, first change after start (loads the emitters) | ${fixed(medianOf(samples, (sample) => sample.watch.firstChangePrintedMs) / 1000)} s |`,
  );
  say(`| generate --watch, a later change, save to line printed | ${fixed(medianOf(samples, (sample) => sample.watch.observedMs) / 1000)} s |`);
  say(`| generate re-run in a fresh process, same change, cache warm | ${fixed(medianOf(samples, (sample) => sample.watch.rerunMs) / 1000)} s |`);
  say(`watch / re-run: ${fixed(ratio)}x`);
}

if (only.has("hostile")) {
  type Hostile = Record<string, { chars: number; status: string; parseNs: number; guardedNs: number; ratio: number }>;
  const samples = Array.from({ length: runs }, () => runCase<Hostile>(cases("hostile-input.ts")));
  const figure: Record<string, unknown> = {};
  say("\n8. Hostile arguments near the size cap (ratio = guarded call / JSON.parse of the same text)");
  say("| payload | characters | outcome | JSON.parse | guarded call | ratio |\n|---|---|---|---|---|---|");
  for (const name of Object.keys(samples[0] ?? {})) {
    const first = samples[0]?.[name];
    const ratio = medianOf(samples, (sample) => sample[name]?.ratio ?? Number.NaN);
    const ns = (key: "parseNs" | "guardedNs"): number => medianOf(samples, (sample) => sample[name]?.[key] ?? Number.NaN);
    figure[name] = { chars: first?.chars, status: first?.status, ns: { parse: ns("parseNs"), guarded: ns("guardedNs") }, ratio };
    say(`| ${name} | ${first?.chars} | ${first?.status} | ${fixed(ns("parseNs") / 1000, 0)} us | ${fixed(ns("guardedNs") / 1000, 0)} us | ${fixed(ratio)}x |`);
  }
  results.hostileInput = figure;
}

if (only.has("ledger")) {
  type Phase = {
    calls: number;
    callsPerSecond: number;
    p99LatencyMs: number;
    loopDelayMaxMs: number;
    loopDelayP99Ms: number;
    rssThirdMb: number;
    rssEndMb: number;
    liveStartMb: number;
    liveEndMb: number;
    linesOnDisk: number;
    dropped: number;
  };
  type Ledger = Record<string, Phase> & {
    capacity: { linesPerSecond: number; cpuNsPerLine: number };
    open2x: Phase & { offeredPerSecond: number };
    baseline: { loopDelayMaxMs: number; loopDelayP99Ms: number };
    warmup: { seconds: number; rssStartMb: number; rssEndMb: number };
  } & Record<`line:${string}`, { lineNs: number; jsonParseNs: number; leastLineNs: number; lineBytes: number; firstLineUs: number; leastIsLine: boolean }>;
  const samples = Array.from({ length: runs }, () => runCase<Ledger>(cases("ledger-load.ts"), [], {}, ["--expose-gc"]));
  const m = (pick: (sample: Ledger) => number): number => medianOf(samples, pick);
  say(
    "\n9. The default JSONL sink under load (targets: CPU per line <= 1 us under 500 bytes, <= 2 us on the ruleset; no event-loop stall above 50 ms; flat RSS; every call's line on disk or counted as dropped)",
  );
  say(
    "| ledger line | CPU per line | JSON.parse of the raw text | ratio | least line (version 3: raw as sent, fixed fields) | its ratio | least line's bytes are the line's | bytes | a tool's first line (its rules compiled, once) |\n|---|---|---|---|---|---|---|---|---|",
  );
  for (const key of Object.keys(samples[0] ?? {}).filter((name) => name.startsWith("line:"))) {
    const line = (sample: Ledger) =>
      sample[key as `line:${string}`] ?? {
        lineNs: Number.NaN,
        jsonParseNs: Number.NaN,
        leastLineNs: Number.NaN,
        lineBytes: Number.NaN,
        firstLineUs: Number.NaN,
        leastIsLine: false,
      };
    say(
      `| ${key.slice(5)} | ${fixed(m((s) => line(s).lineNs) / 1000)} us | ${fixed(m((s) => line(s).jsonParseNs) / 1000)} us | ${fixed(m((s) => line(s).lineNs / line(s).jsonParseNs))}x | ${fixed(m((s) => line(s).leastLineNs) / 1000)} us | ${fixed(m((s) => line(s).leastLineNs / line(s).jsonParseNs))}x | ${samples.every((s) => line(s).leastIsLine) ? "yes" : "no"} | ${samples[0] ? line(samples[0]).lineBytes : "–"} | ${fixed(
        m((s) => line(s).firstLineUs),
        0,
      )} us |`,
    );
  }
  say(
    `sink alone, synced: ${fixed(
      m((s) => s.capacity.linesPerSecond),
      0,
    )} lines/s, ${fixed(m((s) => s.capacity.cpuNsPerLine) / 1000)} us CPU per line (user + system, serialising to fdatasync)`,
  );
  say(
    `open loop warm-up (${fixed(
      m((s) => s.warmup.seconds),
      1,
    )} s, not measured: V8 sizes its heap to the load): RSS ${fixed(
      m((s) => s.warmup.rssStartMb),
      0,
    )} -> ${fixed(
      m((s) => s.warmup.rssEndMb),
      0,
    )} MB`,
  );
  say(
    "| load | calls/s | p99 call latency | event-loop delay p99 / max | RSS at 1/3 -> end | live heap start -> end | lines on disk | dropped |\n|---|---|---|---|---|---|---|---|",
  );
  const labels: Record<string, string> = {
    open2x: "open loop at 2x the sink's rate, overflow drop",
    closed: "1,000 callers, default (overflow wait)",
    durable: "1,000 callers, durable",
  };
  for (const key of ["open2x", "closed", "durable"]) {
    const p = (pick: (phase: Phase) => number): number => m((s) => pick(s[key] as Phase));
    say(
      `| ${labels[key]} | ${fixed(
        p((x) => x.callsPerSecond),
        0,
      )} | ${fixed(
        p((x) => x.p99LatencyMs),
        1,
      )} ms | ${fixed(
        p((x) => x.loopDelayP99Ms),
        1,
      )} / ${fixed(
        p((x) => x.loopDelayMaxMs),
        1,
      )} ms | ${fixed(
        p((x) => x.rssThirdMb),
        0,
      )} -> ${fixed(
        p((x) => x.rssEndMb),
        0,
      )} MB | ${fixed(
        p((x) => x.liveStartMb),
        0,
      )} -> ${fixed(
        p((x) => x.liveEndMb),
        0,
      )} MB | ${fixed(
        p((x) => x.linesOnDisk),
        0,
      )} | ${fixed(
        p((x) => x.dropped),
        0,
      )} |`,
    );
  }
  say(
    `baseline, work in 1 ms slices without guard or sink: event-loop delay p99 / max ${fixed(
      m((s) => s.baseline.loopDelayP99Ms),
      1,
    )} / ${fixed(
      m((s) => s.baseline.loopDelayMaxMs),
      1,
    )} ms (the machine's own stalls)`,
  );
  results.ledger = samples;
}

if (only.has("overload")) {
  type Policy = {
    issued: number;
    callsPerSecond: number;
    loopDelayMaxMs: number;
    loopDelayP99Ms: number;
    rssStartMb: number;
    rssThirdMb: number;
    rssEndMb: number;
    linesOnDisk: number;
    dropped: number;
    notHeld: number;
    peakInFlight: number;
    liveStartMb: number;
    liveEndMb: number;
  };
  type Overload = Record<string, Policy> & {
    offeredPerSecond: number;
    seconds: number;
    warmup: { seconds: number; rssStartMb: number; rssEndMb: number };
    baseline: { loopDelayMaxMs: number; loopDelayP99Ms: number };
  };
  const samples = Array.from({ length: runs }, () => runCase<Overload>(cases("overload.ts"), [], {}, ["--expose-gc"]));
  const m = (pick: (sample: Overload) => number): number => medianOf(samples, pick);
  say(
    `\n12. Overload (issue 26): an open loop at twice the sink's rate (${fixed(
      m((s) => s.offeredPerSecond),
      0,
    )} calls/s offered) for ${m((s) => s.seconds)} s per overflow policy (targets: no event-loop stall above 50 ms beyond the machine's own, flat RSS, lines on disk + dropped = issued)`,
  );
  say(
    `warm-up, the same loop under "drop", not measured: ${fixed(
      m((s) => s.warmup.seconds),
      1,
    )} s, RSS ${fixed(
      m((s) => s.warmup.rssStartMb),
      0,
    )} -> ${fixed(
      m((s) => s.warmup.rssEndMb),
      0,
    )} MB (V8's heap sized to the load; charged to the first policy before)`,
  );
  say(
    "| policy | issued | calls/s | event-loop delay p99 / max | RSS start -> 1/3 -> end | heap in use after GC, start -> end | peak in flight | lines on disk | dropped | answered at once past maxWaiting |\n|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const policy of ["drop", "wait", "wait, durable"]) {
    const p = (pick: (phase: Policy) => number, digits = 0): string =>
      fixed(
        m((s) => pick(s[policy] as Policy)),
        digits,
      );
    say(
      `| ${policy} | ${p((x) => x.issued)} | ${p((x) => x.callsPerSecond)} | ${p((x) => x.loopDelayP99Ms, 1)} / ${p((x) => x.loopDelayMaxMs, 1)} ms | ${p((x) => x.rssStartMb)} -> ${p((x) => x.rssThirdMb)} -> ${p((x) => x.rssEndMb)} MB | ${p((x) => x.liveStartMb)} -> ${p((x) => x.liveEndMb)} MB | ${p((x) => x.peakInFlight)} | ${p((x) => x.linesOnDisk)} | ${p((x) => x.dropped)} | ${p((x) => x.notHeld)} |`,
    );
  }
  say(
    `baseline, work in 1 ms slices for as long, without guard or sink: event-loop delay p99 / max ${fixed(
      m((s) => s.baseline.loopDelayP99Ms),
      1,
    )} / ${fixed(
      m((s) => s.baseline.loopDelayMaxMs),
      1,
    )} ms (the machine's own stalls)`,
  );
  results.overload = samples;
}

if (only.has("stores")) {
  type Phase = { calls: number; callsPerSecond: number; p99Ms: number };
  type Stores = Record<string, Phase> & { skipped?: string };
  const samples = Array.from({ length: runs }, () => runCase<Stores>(cases("shared-stores.ts")));
  say(
    "\n10. Shared stores (issue 28): the README's MCP server, embedded stores vs PostgreSQL on 127.0.0.1 (calls/s and p99 per call; each client its own caller)",
  );
  const skipped = samples.find((sample) => sample.skipped !== undefined)?.skipped;
  if (skipped !== undefined) say(`skipped: ${skipped}`);
  else {
    say("| path | clients | embedded calls/s | PostgreSQL calls/s | ratio | embedded p99 | PostgreSQL p99 |\n|---|---|---|---|---|---|---|");
    for (const count of [1, 4, 16])
      for (const route of ["valid", "idempotent", "failed"]) {
        const p = (kind: string, pick: (phase: Phase) => number): number =>
          medianOf(samples, (s) => pick(s[`${route}:${count}:${kind}`] ?? { calls: Number.NaN, callsPerSecond: Number.NaN, p99Ms: Number.NaN }));
        say(
          `| ${route} | ${count} | ${fixed(
            p("embedded", (x) => x.callsPerSecond),
            0,
          )} | ${fixed(
            p("postgres", (x) => x.callsPerSecond),
            0,
          )} | ${fixed(
            medianOf(
              samples,
              (s) => (s[`${route}:${count}:postgres`]?.callsPerSecond ?? Number.NaN) / (s[`${route}:${count}:embedded`]?.callsPerSecond ?? Number.NaN),
            ),
          )}x | ${fixed(p("embedded", (x) => x.p99Ms))} ms | ${fixed(p("postgres", (x) => x.p99Ms))} ms |`,
        );
      }
  }
  results.sharedStores = samples;
}

if (only.has("report")) {
  type Report = { entries: number; megabytes: number; calls: number; wallMs: number; cpuMs: number; peakRssMb: number; inProcessMs: number };
  const samples = Array.from({ length: runs }, () => runCase<Report>(cases("report-ledger.ts")));
  const m = (pick: (sample: Report) => number): number => medianOf(samples, pick);
  const first = samples[0] as Report;
  results.report = {
    entries: first.entries,
    megabytes: first.megabytes,
    wallMs: m((s) => s.wallMs),
    cpuMs: m((s) => s.cpuMs),
    peakRssMb: m((s) => s.peakRssMb),
    inProcessMs: m((s) => s.inProcessMs),
  };
  say("\n11. toolguard report on a simulated week (targets: 100k entries in under 2 s and 200 MB; fresh process, --json and --html)");
  say("| entries | ledger | wall | CPU (user + sys) | peak RSS | read + analysis in process |\n|---|---|---|---|---|---|");
  say(
    `| ${first.entries} | ${fixed(first.megabytes, 0)} MB | ${fixed(
      m((s) => s.wallMs),
      0,
    )} ms | ${fixed(
      m((s) => s.cpuMs),
      0,
    )} ms | ${fixed(
      m((s) => s.peakRssMb),
      0,
    )} MB | ${fixed(
      m((s) => s.inProcessMs),
      0,
    )} ms |`,
  );
}

const machine = { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version, platform: `${process.platform} ${process.arch}` };
say(
  `\nMachine: ${machine.cpus} x ${machine.model}, Node ${machine.node}, ${machine.platform}; medians over ${runs} processes (generation: ${generationRuns}).`,
);
if (smoke) {
  console.log("\nsmoke run: every case ran and passed its own checks; nothing written");
  process.exit(0);
}
const out = path.join(REPO, "bench/results");
mkdirSync(out, { recursive: true });
// Partial runs go to a scratch file; only a complete run replaces latest.json.
const file = only.size === FIGURES.length ? "latest.json" : "partial.tmp.json";
writeFileSync(path.join(out, file), `${JSON.stringify({ machine, runs, generationRuns, results, table: lines.join("\n").trim() }, null, 2)}\n`);
console.log(`\nwrote bench/results/${file}`);

/** The command line, checked: a typo must not quietly measure nothing. */
function readArguments(): { only: Set<string>; runs: number; generationRuns: number; smoke: boolean } {
  const fail = (message: string): never => {
    console.error(`bench: ${message}`);
    process.exit(2);
  };
  let values: { only?: string; runs?: string; "generation-runs"?: string; smoke?: boolean };
  try {
    ({ values } = parseArgs({
      options: { only: { type: "string" }, runs: { type: "string" }, "generation-runs": { type: "string" }, smoke: { type: "boolean" } },
    }));
  } catch (error) {
    return fail(`${(error as Error).message}; options: --only ${FIGURES.join(",")} --runs N --generation-runs N --smoke`);
  }
  const only = new Set(values.only ? values.only.split(",").map((name) => name.trim()) : FIGURES);
  for (const name of only)
    if (!(FIGURES as readonly string[]).includes(name)) fail(`unknown figure "${name}" in --only; the figures are ${FIGURES.join(", ")}`);
  const count = (option: "runs" | "generation-runs", fallback: number): number => {
    const text = values[option];
    if (text === undefined) return values.smoke ? 1 : fallback;
    if (!/^[1-9]\d*$/.test(text)) fail(`--${option} must be a whole number of processes, at least 1; got "${text}"`);
    return Number(text);
  };
  const smoke = values.smoke === true;
  // The cases read this to shrink their batches (lib/side-by-side.ts).
  if (smoke) process.env["TOOLGUARD_BENCH_SMOKE"] = "1";
  return { only, runs: count("runs", 5), generationRuns: count("generation-runs", 3), smoke };
}
