// `npm run demo` is the README's first thing to try after generating: it must say what it shows.
// Its last section promises one ledger entry per chain; the ledger writes a chain again each
// time it waits for the model, so listing every entry printed a chain two or three times.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("npm run demo", () => {
  it("lists each chain of the ledger once, with its final verdict", () => {
    const output = execFileSync(process.execPath, [path.join(REPO, "examples/demo.ts")], { cwd: REPO, encoding: "utf8" });
    const ledger = output.slice(output.indexOf("=== the ledger: one entry per chain"));
    const lines = ledger
      .split("\n")
      .slice(1)
      .filter((line) => line.trim() !== "");
    const titles = lines.map((line) => line.slice(0, line.lastIndexOf(": ")).replace(/: [a-z]+, \d+ attempt.*$/, ""));
    expect(lines.length).toBeGreaterThan(3);
    expect(new Set(titles).size).toBe(lines.length);
    expect(lines.some((line) => / open, /.test(line))).toBe(false);
    expect(lines).toContain("a locale-formatted amount, repaired once: repaired, 2 attempt(s), 1 repair(s)");
  });
});
