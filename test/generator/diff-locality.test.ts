// A schema edit regenerates into a diff of that edit alone (issue 30): each edit of the battery
// (diff-locality/battery.ts), on the example tools and on three of GitHub's, changes no line
// only by renaming one of ajv's names. docs/diff.md's table is printed by
// `npx node test/generator/diff-locality/table.ts`.
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { EDITS, measure, runBattery } from "./diff-locality/battery.ts";
import { localityTools } from "./diff-locality/tools.ts";

let tools: readonly ToolDescription[] = [];
beforeAll(async () => {
  tools = await localityTools();
});

describe("generated diffs are local to the schema change", () => {
  it("the renamed-only count sees a rename (the measure itself)", () => {
    const before = "const err20 = a;\nif(schema31.x){\nconst pattern_0a1b2c = 1;\n}\n";
    const after = "const err21 = a;\nif(schema32.x){\nconst pattern_ffffff = 1;\n}\n";
    expect(measure(before, after)).toMatchObject({ changed: 6, renamedOnly: 6 });
    // A moved line is a move, and a changed value is a change.
    expect(measure("a0\nb0\n", "b0\na0\n").renamedOnly).toBe(0);
    expect(measure("x = 1;\n", "x = 2;\n").renamedOnly).toBe(0);
  });

  it("covers the example tools and three GitHub tools", () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      "create_invoice",
      "schedule_meeting",
      "search_tickets",
      "update_org_chart",
      "code-security_create-configuration",
      "dependabot_update-alert",
      "repos_create-repo-ruleset",
    ]);
  });

  it.each([0, 1, 2, 3, 4, 5, 6])("tool %i: every edit of the battery renames nothing", async (index) => {
    const tool = tools[index] as ToolDescription;
    const results = await runBattery(tool);
    // Each edit applies to the invoice tool and to GitHub's (update_org_chart has no enum).
    if (tool.name !== "update_org_chart") expect(results.every(Boolean)).toBe(true);
    for (const result of results) {
      if (!result) continue;
      expect({ edit: result.edit, renamed: result.renamedExamples }).toEqual({ edit: result.edit, renamed: [] });
      expect(result.changed).toBeGreaterThan(0);
    }
    expect(results.length).toBe(EDITS.length);
  });
});
