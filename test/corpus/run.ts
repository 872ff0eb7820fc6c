// `npm run corpus`: judges the corpus (test/corpus/manifest.json) with the oracles of
// judge-document.ts and writes .corpus/report.json and .corpus/report.md.
//
//   npm run corpus                        every entry (one worker per core, at most 2)
//   npm run corpus -- --sample            only the sample `npm test` runs
//   npm run corpus -- --only stripe       entries whose id contains a text (repeatable)
//   npm run corpus -- --no-typecheck      skip strict tsc on each package (the slowest oracle)
//   npm run corpus -- --workers 1         fewer worker processes
//   npm run corpus -- --manifest          rebuild manifest.json from the installed sources
//   npm run corpus -- --update-known      rebuild the manifest, run the sample, rewrite known-failures.json
//   npm run corpus -- --report-only       the report again from the results.jsonl a run (or part of one) wrote
//   npm run corpus -- --resume            judge only the entries the --out folder's results.jsonl has no result for
//
// Exit 0 when the run completes (its findings are in the report), 1 when an oracle found a new
// failure in the sample (--sample, --update-known aside), 2 for bad flags.
import { fork } from "node:child_process";
import { availableParallelism } from "node:os";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareWithKnown, readKnownFailures, writeKnownFailures } from "./known-failures.ts";
import { emptyOracle } from "./judge-document.ts";
import { buildManifest, type ManifestEntry, readManifest, writeManifest } from "./manifest.ts";
import { buildReport, formatReport, type RunResult } from "./report.ts";
import { ROOT } from "./sources.ts";
import type { WorkerMessage, WorkerRequest } from "./worker.ts";

/** Documents per worker process before a fresh one takes over (memory stays bounded). */
const CHUNK = 20;
/** Operations past which a document gets a worker process of its own. */
const LARGE = 400;
/** Heap per worker: the largest documents (GitHub's, OpenAI's) need more than Node's default. */
const WORKER_HEAP_MB = 3072;

interface Options {
  readonly sample: boolean;
  readonly only: readonly string[];
  readonly typecheck: boolean;
  readonly workers: number;
  readonly out: string;
  readonly manifest: boolean;
  readonly updateKnown: boolean;
  readonly reportOnly: boolean;
  /** Keep the --out folder's results.jsonl and judge only the entries it has no result for. */
  readonly resume: boolean;
}

function parseArgs(args: readonly string[]): Options | string {
  const only: string[] = [];
  let sample = false;
  let typecheck = true;
  let workers = Math.min(2, availableParallelism());
  let out = path.join(ROOT, ".corpus");
  let manifest = false;
  let updateKnown = false;
  let reportOnly = false;
  let resume = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--sample") sample = true;
    else if (arg === "--no-typecheck") typecheck = false;
    else if (arg === "--manifest") manifest = true;
    else if (arg === "--update-known") updateKnown = true;
    else if (arg === "--report-only") reportOnly = true;
    else if (arg === "--resume") resume = true;
    else if (arg === "--only" || arg === "--workers" || arg === "--out") {
      const value = args[++index];
      if (value === undefined) return `${arg} needs a value`;
      if (arg === "--only") only.push(value);
      else if (arg === "--out") out = path.resolve(value);
      else {
        workers = Number(value);
        if (!Number.isInteger(workers) || workers < 1) return `--workers must be a whole number of at least 1, got ${JSON.stringify(value)}`;
      }
    } else
      return `unknown option ${JSON.stringify(arg)} (known: --sample, --only TEXT, --no-typecheck, --workers N, --out DIR, --manifest, --update-known, --report-only, --resume)`;
  }
  return { sample: sample || updateKnown, only, typecheck, workers, out, manifest, updateKnown, reportOnly, resume };
}

/**
 * Chunks of entries, large documents alone, smallest first: a run stopped early has judged the
 * most documents it could, and its results.jsonl makes a report (--report-only).
 */
function chunks(entries: readonly ManifestEntry[]): ManifestEntry[][] {
  const bySize = [...entries].sort((a, b) => a.bytes - b.bytes || (a.id < b.id ? -1 : 1));
  const out: ManifestEntry[][] = [];
  let current: ManifestEntry[] = [];
  for (const entry of bySize) {
    if (entry.operations >= LARGE) out.push([entry]);
    else {
      current.push(entry);
      if (current.length === CHUNK) {
        out.push(current);
        current = [];
      }
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Runs one chunk in a fresh worker process; a worker that dies is reported for the document it was on, and the rest of its chunk continues in another. */
function runChunk(chunk: readonly ManifestEntry[], typecheck: boolean, onResult: (result: RunResult) => void): Promise<void> {
  return new Promise((resolve) => {
    const pending = new Map(chunk.map((entry) => [entry.id, entry]));
    let current: string | undefined;
    const child = fork(path.join(import.meta.dirname, "worker.ts"), [], {
      execArgv: [`--max-old-space-size=${WORKER_HEAP_MB}`],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let stderr = "";
    child.stderr!.on("data", (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-4000);
    });
    child.on("message", (message: WorkerMessage) => {
      if ("started" in message) current = message.started;
      else if ("result" in message) {
        const result = message.result as RunResult;
        pending.delete(result.id);
        current = undefined;
        onResult(result);
      }
    });
    child.on("exit", (code, signal) => {
      if (current !== undefined) {
        // The process died on this document: out of memory, or a crash. That is an internal error.
        pending.delete(current);
        onResult({
          id: current,
          kind: "openapi",
          status: "internal-error",
          operations: chunk.find((entry) => entry.id === current)?.operations ?? 0,
          tools: 0,
          skips: {},
          internalError: `the generating process died (${signal ?? `exit ${code}`}): ${stderr.split("\n").filter(Boolean).slice(-3).join(" | ")}`,
          generationMs: 0,
          packageBytes: 0,
          toolBytes: 0,
          warnings: 0,
          oracle: emptyOracle(),
        });
      }
      const rest = chunk.filter((entry) => pending.has(entry.id));
      if (rest.length > 0 && rest.length < chunk.length) runChunk(rest, typecheck, onResult).then(resolve);
      else {
        for (const entry of rest)
          onResult({ id: entry.id, harnessError: `the worker exited (${signal ?? `exit ${code}`}) before it started: ${stderr.slice(-600)}` });
        resolve();
      }
    });
    child.send({ entries: chunk, typecheck } satisfies WorkerRequest);
  });
}

/** Judges the entries with at most `workers` processes at a time; results in manifest order. */
export async function runCorpus(
  entries: readonly ManifestEntry[],
  options: { typecheck: boolean; workers: number; log?: (line: string) => void; onResult?: (result: RunResult) => void },
): Promise<RunResult[]> {
  const queue = chunks(entries);
  const results = new Map<string, RunResult>();
  let done = 0;
  const next = async (): Promise<void> => {
    for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
      await runChunk(chunk, options.typecheck, (result) => {
        results.set(result.id, result);
        options.onResult?.(result);
        done++;
        const status =
          "harnessError" in result ? "harness error" : `${result.status}, ${result.tools} tools, ${result.oracle.falseRejections} false rejections`;
        options.log?.(`[${done}/${entries.length}] ${result.id}: ${status}`);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, queue.length)) }, next));
  return entries.map((entry) => results.get(entry.id) ?? { id: entry.id, harnessError: "no result" });
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (typeof options === "string") {
    process.stderr.write(`corpus: ${options}\n`);
    return 2;
  }
  if (options.manifest || options.updateKnown) {
    const manifest = buildManifest();
    writeManifest(manifest);
    process.stdout.write(
      `corpus: wrote test/corpus/manifest.json: ${manifest.documents} documents from ${manifest.vendors} vendors, ${manifest.mcpServers} MCP servers, ${manifest.entries.filter((entry) => entry.sample).length} in the sample\n`,
    );
    if (!options.updateKnown) return 0;
  }
  const manifest = readManifest();
  const entries = manifest.entries.filter(
    (entry) => (!options.sample || entry.sample) && (options.only.length === 0 || options.only.some((text) => entry.id.includes(text))),
  );
  if (entries.length === 0) {
    process.stderr.write(`corpus: no manifest entry matches ${options.only.map((text) => JSON.stringify(text)).join(", ")}\n`);
    return 2;
  }
  const stream = path.join(options.out, "results.jsonl");
  if (options.reportOnly) {
    if (!existsSync(stream)) {
      process.stderr.write(`corpus: no ${stream}: run the corpus first\n`);
      return 1;
    }
    const byId = readResults(stream);
    const results = entries.flatMap((entry) => byId.get(entry.id) ?? []);
    const report = buildReport(manifest, results, { entries: results.length, workers: options.workers, typecheck: options.typecheck, wallSeconds: 0 });
    writeFileSync(path.join(options.out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(options.out, "report.md"), formatReport(report));
    process.stdout.write(`${formatReport(report).split("\n## ")[0]}\ncorpus: wrote report.md and report.json from ${results.length} results in ${stream}\n`);
    return 0;
  }
  const started = performance.now();
  // Each result as it comes, so a long run can be read while it goes.
  mkdirSync(options.out, { recursive: true });
  // --resume: what an earlier run (stopped, or on other entries) judged is kept and not judged again.
  const earlier = options.resume && existsSync(stream) ? readResults(stream) : new Map<string, RunResult>();
  if (!options.resume) writeFileSync(stream, "");
  const todo = entries.filter((entry) => !earlier.has(entry.id));
  if (options.resume) process.stderr.write(`corpus: ${entries.length - todo.length} entries already judged in ${stream}, ${todo.length} to go\n`);
  const judged = new Map(
    (
      await runCorpus(todo, {
        typecheck: options.typecheck,
        workers: options.workers,
        log: (line) => process.stderr.write(`${line}\n`),
        onResult: (result: RunResult) => appendFileSync(stream, `${JSON.stringify(result)}\n`),
      })
    ).map((result) => [result.id, result]),
  );
  const results = entries.map((entry) => judged.get(entry.id) ?? earlier.get(entry.id)!);
  const report = buildReport(manifest, results, {
    entries: entries.length,
    workers: options.workers,
    typecheck: options.typecheck,
    wallSeconds: (performance.now() - started) / 1000,
  });
  mkdirSync(options.out, { recursive: true });
  writeFileSync(path.join(options.out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(options.out, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(options.out, "report.md"), formatReport(report));
  process.stdout.write(
    `${formatReport(report).split("\n## ")[0]}\ncorpus: wrote ${path.relative(process.cwd(), options.out) || "."}/report.md, report.json, results.json\n`,
  );
  if (options.updateKnown) {
    const known = writeKnownFailures(results);
    process.stdout.write(
      `corpus: wrote test/corpus/known-failures.json (${Object.values(known).flat().length} known failures in ${Object.keys(known).length} documents)\n`,
    );
    return 0;
  }
  if (options.sample) {
    const { added, fixed } = compareWithKnown(results, readKnownFailures());
    for (const line of fixed) process.stdout.write(`fixed (remove from known-failures.json with --update-known): ${line}\n`);
    for (const line of added) process.stdout.write(`NEW failure: ${line}\n`);
    return added.length > 0 ? 1 : 0;
  }
  return 0;
}

/** A results.jsonl by id; a document judged again (appended by a later run) counts once, as last judged. */
function readResults(stream: string): Map<string, RunResult> {
  const lines = readFileSync(stream, "utf8").split("\n").filter(Boolean);
  return new Map(lines.map((line) => JSON.parse(line) as RunResult).map((result) => [result.id, result]));
}

if (import.meta.main) process.exitCode = await main();
