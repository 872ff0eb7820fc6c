// Runs a bench case in fresh child processes and collects the JSON each prints on its last
// line of stdout. Each process is one independent sample; the caller takes medians.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";

export const REPO = path.resolve(import.meta.dirname, "../..");

export function runCase<T>(file: string, args: readonly string[] = [], env: Record<string, string> = {}, nodeFlags: readonly string[] = []): T {
  const output = execFileSync(process.execPath, [...nodeFlags, file, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = output.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as T;
}

export interface TimedRun {
  readonly wallMs: number;
  readonly peakRssMb: number;
  /** User + system CPU of the child, in ms (a loaded machine stretches wall time, not this). */
  readonly cpuMs: number;
  readonly stdout: string;
}

/** Runs a command under /usr/bin/time -v: wall clock and peak resident memory of the child. */
export function timed(command: string, args: readonly string[], cwd: string): TimedRun {
  const start = performance.now();
  const result = spawnSync("/usr/bin/time", ["-v", command, ...args], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const cpu = /User time \(seconds\): ([\d.]+)[\s\S]*System time \(seconds\): ([\d.]+)/.exec(result.stderr);
  return {
    wallMs,
    peakRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
    cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN,
    stdout: result.stdout,
  };
}
