// The official JSON Schema Test Suite through toolguard's generation path (see run-suite.ts).
// Fails on any case that fails and is not in known-failures.json, and on any listed case that
// now passes, so the list stays honest; regenerate it with update-known-failures.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runSuite, type CaseResult } from "./run-suite.ts";

const known = JSON.parse(readFileSync(path.join(import.meta.dirname, "known-failures.json"), "utf8")) as Record<string, { verdict: string; reason: string }>;
let results: CaseResult[];

beforeAll(async () => {
  results = await runSuite();
});

describe("JSON Schema Test Suite (draft2020-12, draft7)", () => {
  it("runs every case", () => {
    expect(results.length).toBeGreaterThan(2000);
  });

  it("the generated validator agrees with ajv compiled in memory on every case it compiles", () => {
    expect(results.filter((result) => result.disagreement).map((result) => result.id)).toEqual([]);
  });

  it("has no new failure", () => {
    const fresh = results.filter((result) => result.verdict !== "pass" && known[result.id]?.verdict !== result.verdict);
    expect(fresh.map((result) => `${result.verdict}: ${result.id} (${result.detail})`)).toEqual([]);
  });

  it("lists no failure that now passes", () => {
    const passing = new Set(results.filter((result) => result.verdict === "pass").map((result) => result.id));
    const run = new Set(results.map((result) => result.id));
    expect(Object.keys(known).filter((id) => passing.has(id) || !run.has(id))).toEqual([]);
  });

  it("gives every known failure a reason", () => {
    expect(
      Object.entries(known)
        .filter(([, entry]) => !entry.reason || entry.reason === "unexplained")
        .map(([id]) => id),
    ).toEqual([]);
  });
});
