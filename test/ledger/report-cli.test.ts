// `toolguard report` reads the ledger as a stream and says how many torn fragments it skipped.
import { afterEach, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

const entry = (turn: string, failed: boolean) => ({
  v: 1,
  chain: `c-${turn}`,
  tool: "t",
  turn,
  startedAt: "2026-01-01T00:00:00.000Z",
  verdict: failed ? "rejected" : "ok",
  attempts: [
    { raw: "{}", errors: failed ? [{ path: "/a", rule: "type", message: "m" }] : [], coercions: [], guardMs: 0, ...(failed ? { failure: "structural" } : {}) },
  ],
  repairs: 0,
});

describe("toolguard report", () => {
  it("reports a ledger with a torn fragment and an entry glued to it, naming the skipped fragment", async () => {
    project = new TempProject();
    project.write("ledger.jsonl", `${JSON.stringify(entry("a", false))}\n{"v":1,"chain":"dead","to${JSON.stringify(entry("b", true))}\n`);
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/skipped 1 torn fragment in .*ledger\.jsonl/);
    const [report] = JSON.parse(result.stdout) as { tool: string; calls: number; failedCalls: number }[];
    expect(report).toMatchObject({ tool: "t", calls: 2, failedCalls: 1 });
  });
});
