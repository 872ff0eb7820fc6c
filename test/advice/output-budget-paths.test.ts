// The output-budget estimate walks a tool's schema through its `$ref`s. Definitions that reach
// each other along many paths were walked once per path: HubSpot's CRM lists API (its list
// filters: a union of filter kinds, each reaching the others) kept `toolguard generate` running
// for over 45 minutes after the package was written. Each definition is now estimated once per
// tool. Here 40 definitions each reach the next twice: 2^40 paths, one estimate each.
import { describe, expect, it } from "vitest";
import { longestArguments, outputBudgetAdvice } from "../../generator/advice/output-budget.ts";
import type { AdvisedTool } from "../../generator/advice/advice-item.ts";

const LEVELS = 40;

function doublingSchema(): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let level = 0; level < LEVELS; level++) {
    const next = level + 1 < LEVELS ? { $ref: `#/$defs/level${level + 1}` } : { type: "string", maxLength: 10 };
    $defs[`level${level}`] = { type: "object", properties: { left: next, right: next } };
  }
  return { type: "object", properties: { filter: { $ref: "#/$defs/level0" } }, $defs };
}

describe("output budget over definitions reached along many paths", () => {
  it("estimates each definition once: the length doubles per level, and the advice names a place", () => {
    const schema = doublingSchema();
    // Each level is {"left":X,"right":X}: 2 + 2 * (6 or 7 + 2) + 2X characters.
    const { chars } = longestArguments(schema);
    expect(chars).toBeGreaterThan(2 ** LEVELS);
    const tool = { name: "search_lists", inputSchema: schema, source: { file: "lists.json", pointer: "" } } as unknown as AdvisedTool;
    const advice = outputBudgetAdvice(tool);
    expect(advice).toHaveLength(1);
    expect(advice[0]?.kind).toBe("output-budget");
  });
});
