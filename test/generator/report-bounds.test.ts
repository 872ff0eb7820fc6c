// Issue 27, finding 7: `toolguard report` folds a ledger into bounded counts. The number of
// tools and of rules per tool is capped (the rest counted together), only the last
// CHAIN_WINDOW chains are kept to be replaced by a later entry, and the counts equal the report
// of the whole ledger read at once.
import { describe, expect, it } from "vitest";
import { buildReport } from "../../generator/report.ts";
import { CHAIN_WINDOW, MAX_RULES, MAX_TOOLS, OTHER_RULES, OTHER_TOOLS, ReportTally } from "../../generator/report-stream.ts";

const entry = (chain: string, tool: string, verdict: string, rules: string[][]) => ({
  v: 1,
  chain,
  tool,
  turn: chain,
  startedAt: "",
  verdict,
  repairs: 0,
  attempts: rules.map((list) =>
    list.length === 0 ? { raw: "{}", errors: [] } : { raw: "{}", failure: "structural", errors: list.map((rule) => ({ path: "", rule, message: "" })) },
  ),
});

describe("the report's tally is bounded", () => {
  it("tools past MAX_TOOLS are counted together", () => {
    const tally = new ReportTally();
    for (let i = 0; i < MAX_TOOLS + 50; i++) tally.add(entry(`c${i}`, `tool-${i}`, "ok", [[]]));
    expect(tally.tools.size).toBe(MAX_TOOLS + 1);
    expect(tally.tools.get(OTHER_TOOLS)?.calls).toBe(50);
  });

  it("rules past MAX_RULES are counted together", () => {
    const tally = new ReportTally();
    for (let i = 0; i < MAX_RULES + 7; i++) tally.add(entry(`c${i}`, "t", "rejected", [[`rule-${i}`]]));
    const rules = tally.tools.get("t")?.rules;
    expect(rules?.size).toBe(MAX_RULES + 1);
    expect(rules?.get(OTHER_RULES)).toBe(7);
  });

  it("a chain's later entry replaces its earlier one, as in the report of the whole ledger", () => {
    const entries = [
      entry("a", "t", "abandoned", [["enum"]]),
      entry("b", "t", "ok", [[]]),
      entry("a", "t", "repaired", [["enum"], []]),
      ...Array.from({ length: 100 }, (_, i) => entry(`f${i}`, "u", "ok", [[]])),
      entry("b", "t", "ok", [[]]),
    ];
    const [t] = buildReport(entries);
    expect(t).toMatchObject({ tool: "t", calls: 3, failedCalls: 1, repairSucceeded: 1, rules: [{ rule: "enum", failedCalls: 1 }] });
  });

  it("remembers only the last CHAIN_WINDOW chains", () => {
    const tally = new ReportTally();
    tally.add(entry("first", "t", "ok", [[]]));
    for (let i = 0; i < CHAIN_WINDOW; i++) tally.add(entry(`c${i}`, "t", "ok", [[]]));
    // Out of the window: a late entry of the first chain is counted as its own.
    tally.add(entry("first", "t", "ok", [[]]));
    expect(tally.tools.get("t")?.calls).toBe(CHAIN_WINDOW + 2);
    // Within it: replaced.
    tally.add(entry(`c${CHAIN_WINDOW - 1}`, "t", "ok", [[]]));
    expect(tally.tools.get("t")?.calls).toBe(CHAIN_WINDOW + 2);
  });
});
