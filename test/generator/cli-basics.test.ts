// The command's first contact: an unsupported Node gets a sentence (the bin must not die with a
// SyntaxError), `--version` answers, and `report` counts in English.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import { formatText } from "../../generator/report/format-text.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

const BIN = path.join(REPO, "bin/toolguard.js");
const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** Runs the bin under this Node, told it is `version` (as Node 20 would report itself). */
function runAs(version: string, ...args: string[]) {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`;
  return spawnSync(process.execPath, ["--import", pretend, BIN, ...args], { encoding: "utf8", cwd: REPO });
}

describe("toolguard on an unsupported Node", () => {
  it("says which Node it needs and exits 1", () => {
    const result = runAs("20.19.0", "--version");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("toolguard needs Node.js 22 or newer");
    expect(result.stderr).toContain("this is Node.js 20.19.0");
    expect(result.stderr).not.toMatch(/SyntaxError/);
  });

  it("runs on a supported one", () => {
    expect(runAs("24.0.0", "--version").stdout).toBe(`toolguard ${VERSION}\n`);
  });
});

describe("toolguard --version", () => {
  it("prints the package version", async () => {
    const project = new TempProject();
    try {
      expect(await project.run("--version")).toEqual({ code: 0, stdout: `toolguard ${VERSION}\n`, stderr: "" });
    } finally {
      project.remove();
    }
    expect(execFileSync(process.execPath, [BIN, "-v"], { encoding: "utf8" })).toBe(`toolguard ${VERSION}\n`);
  });
});

describe("report", () => {
  it("says 1 call, 2 calls", () => {
    const fold = new ReportFold();
    const entry = (chain: string, tool: string) => ({
      v: 1,
      chain,
      tool,
      turn: chain,
      startedAt: "2026-01-01T00:00:00.000Z",
      verdict: "ok",
      repairs: 0,
      attempts: [{ raw: "{}", errors: [] }],
    });
    for (const [chain, tool] of [
      ["a", "one"],
      ["b", "two"],
      ["c", "two"],
    ] as const)
      fold.add(entry(chain, tool));
    const text = formatText(analyse(fold.finish()));
    expect(text).toContain("one: 1 call, 0 failed");
    expect(text).toContain("two: 2 calls, 0 failed");
  });
});
