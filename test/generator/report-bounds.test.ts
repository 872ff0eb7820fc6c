// Issue 27, finding 7: `toolguard report` folds a ledger into bounded counts. The number of
// tools and of rules per tool is capped (the rest counted together), only the last OPEN_WINDOW
// chains still open wait for the entry that supersedes them, and a chain's final entry replaces
// its open one.
import { describe, expect, it } from "vitest";
import { MAX_RULES, MAX_TOOLS, OTHER_RULES, OTHER_TOOLS } from "../../generator/report-stream.ts";
import { OPEN_WINDOW, ReportFold } from "../../generator/report/fold.ts";

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

const folded = (entries: Iterable<unknown>): ReportFold => {
  const fold = new ReportFold();
  for (const one of entries) fold.add(one);
  return fold;
};

describe("the report's fold is bounded", () => {
  it("tools past MAX_TOOLS are counted together", () => {
    const fold = folded(Array.from({ length: MAX_TOOLS + 50 }, (_, i) => entry(`c${i}`, `tool-${i}`, "ok", [[]])));
    expect(fold.tools.size).toBe(MAX_TOOLS + 1);
    expect(fold.tools.get(OTHER_TOOLS)?.calls).toBe(50);
  });

  it("rules past MAX_RULES are counted together", () => {
    const fold = folded(Array.from({ length: MAX_RULES + 7 }, (_, i) => entry(`c${i}`, "t", "rejected", [[`rule-${i}`]])));
    const rules = fold.tools.get("t")?.rules;
    expect(rules?.size).toBe(MAX_RULES + 1);
    expect(rules?.get(OTHER_RULES)).toBe(7);
  });

  it("a chain's final entry replaces its open one", () => {
    const fold = folded([
      entry("a", "t", "open", [["enum"]]),
      entry("b", "t", "ok", [[]]),
      ...Array.from({ length: 100 }, (_, i) => entry(`f${i}`, "u", "ok", [[]])),
      entry("a", "t", "repaired", [["enum"], []]),
    ]).finish();
    const t = fold.tools.get("t");
    expect(t).toMatchObject({ calls: 3, failedCalls: 1 });
    expect([...(t?.verdicts ?? [])]).toEqual([
      ["ok", 1],
      ["repaired", 1],
    ]);
    expect(t?.rules.get("enum")).toBe(1);
  });

  it("keeps only the last OPEN_WINDOW open chains waiting", () => {
    const fold = folded([entry("first", "t", "open", [["enum"]]), ...Array.from({ length: OPEN_WINDOW }, (_, i) => entry(`c${i}`, "t", "open", [[]]))]);
    // Out of the window: the first chain is counted as it stood, and its late final entry on its own.
    expect(fold.tools.get("t")?.verdicts.get("open")).toBe(1);
    fold.add(entry("first", "t", "ok", [["enum"], []]));
    expect(fold.tools.get("t")?.verdicts.get("ok")).toBe(1);
    // Within it: the final entry replaces the open one.
    fold.add(entry(`c${OPEN_WINDOW - 1}`, "t", "ok", [[]]));
    expect(fold.tools.get("t")?.verdicts.get("ok")).toBe(2);
    fold.finish();
    expect(fold.tools.get("t")?.verdicts.get("open")).toBe(OPEN_WINDOW);
  });
});
