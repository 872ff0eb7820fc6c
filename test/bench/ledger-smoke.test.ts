// The ledger-under-load case (figure 6) runs once with tiny phases, so its own checks hold:
// every call's line is on disk or counted as dropped, in every phase.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("npm run bench -- --only ledger", () => {
  it("runs the ledger case and prints its rows", () => {
    const run = spawnSync(process.execPath, [path.join(REPO, "bench/run.ts"), "--smoke", "--only", "ledger"], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 600_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("| create_invoice |");
    expect(run.stdout).toContain("| 1,000 callers, durable |");
    expect(run.stdout).toContain("nothing written");
  });
});
