// Bench figure 11 must keep working: a smoke run simulates a small ledger, reports it in a fresh
// process and in process, checks both count the same calls, and prints its row.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("npm run bench -- --only report", () => {
  it("reports a simulated ledger and prints the figure's row", () => {
    const run = spawnSync(process.execPath, [path.join(REPO, "bench/run.ts"), "--smoke", "--only", "report"], { cwd: REPO, encoding: "utf8" });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/11\. toolguard report on a simulated week/);
    expect(run.stdout).toMatch(/^\| \d+ \| \d+ MB \| \d+ ms \| \d+ ms \| \d+ MB \| \d+ ms \|$/m);
  });
});
