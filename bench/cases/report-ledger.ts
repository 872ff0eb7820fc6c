// Figure 11, one repetition: `toolguard report` on a simulated week of 100,000 turns (about
// 105,000 ledger entries, ~95 MB: bench/simulate/, the default mix, seed 1), as a user runs
// it: a fresh process (`--json` and `--html`), under /usr/bin/time -v for wall, CPU and peak
// resident memory; and in this process the read and the analysis alone, without start-up.
// The ledger is written once under .scratch/bench/ (untimed) and reused.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import { foldLedgerFile } from "../../generator/report/read-lines.ts";
import { REPO, timed } from "../lib/processes.ts";
import { simulateTraffic } from "../simulate/traffic.ts";

const smoke = process.env.TOOLGUARD_BENCH_SMOKE === "1";
const turns = smoke ? 2_000 : 100_000;
const dir = path.join(REPO, ".scratch/bench");
const ledger = path.join(dir, `report-${turns}.jsonl`);
mkdirSync(dir, { recursive: true });
if (!existsSync(ledger)) {
  const partial = `${ledger}.partial`;
  rmSync(partial, { force: true });
  await simulateTraffic({ ledger: partial, turns, seed: 1 });
  renameSync(partial, ledger);
}

const html = path.join(dir, "report.html");
const run = timed(process.execPath, [path.join(REPO, "generator/main.ts"), "report", ledger, "--json", "--html", html], REPO);
const analysis = JSON.parse(run.stdout) as { calls: number; tools: unknown[] };

const started = performance.now();
const scan = { entries: 0, torn: 0 };
const fold = new ReportFold();
await foldLedgerFile(ledger, fold, scan);
const inProcess = analyse(fold.finish());
const inProcessMs = performance.now() - started;
if (inProcess.calls !== analysis.calls) throw new Error(`report-ledger: the command counted ${analysis.calls} calls, the in-process read ${inProcess.calls}`);
if (!smoke && scan.entries < 100_000) throw new Error(`report-ledger: only ${scan.entries} entries in ${ledger}`);

console.log(
  JSON.stringify({
    entries: scan.entries,
    megabytes: statSync(ledger).size / 1048576,
    calls: analysis.calls,
    wallMs: run.wallMs,
    cpuMs: run.cpuMs,
    peakRssMb: run.peakRssMb,
    inProcessMs,
  }),
);
