// The benchmark is not run in CI (it takes minutes and wants a quiet machine), but its cases
// must keep working: a smoke run executes the valid and invalid cases once with tiny batches,
// so their own checks run here (every body valid under every contender, every guarded call
// reaching the implementation, the envelope really a validation_failed), and the command line
// refuses what it would otherwise quietly ignore.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { VALID } from "../../bench/lib/bodies.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const bench = (...args: string[]) => spawnSync(process.execPath, [path.join(REPO, "bench/run.ts"), ...args], { cwd: REPO, encoding: "utf8", timeout: 600_000 });

describe("npm run bench", () => {
  it("runs the valid and invalid cases and prints a row per tool", () => {
    const run = bench("--smoke", "--only", "valid,invalid");
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    for (const tool of Object.keys(VALID)) expect(run.stdout).toContain(`| ${tool} |`);
    // Figure 2's row: both contenders' ns and the ratio, wall / CPU (a smoke batch may be too short for a CPU reading).
    expect(run.stdout).toMatch(/\| \d+ \/ (?:\d+|n\/a) ns \| \d+ \/ (?:\d+|n\/a) ns \| [\d.]+x \/ (?:[\d.]+|n\/a)x \|/);
    expect(run.stdout).toContain("nothing written");
  });

  it.each<[string[], RegExp]>([
    [["--only", "vald"], /unknown figure "vald" in --only; the figures are valid, invalid, cold, generation, size, telemetry, changes, hostile, ledger/],
    [["--runs", "0"], /--runs must be a whole number of processes, at least 1; got "0"/],
    [["--generation-runs", "two"], /--generation-runs must be a whole number/],
    [["--fast"], /Unknown option '--fast'.*options: --only/],
  ])("refuses %j", (args, message) => {
    const run = bench(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
