// The renderers: a pull-request comment stays under GitHub's 65,536-character limit however
// many tools changed, and says what it left out; the terminal view drops the path it already shows.
import { describe, expect, it } from "vitest";
import type { ToolDiff } from "../../generator/diff/change.ts";
import type { DiffReport } from "../../generator/diff/diff-report.ts";
import { renderMarkdown } from "../../generator/diff/render-markdown.ts";
import { renderText } from "../../generator/diff/render-text.ts";

function report(count: number): DiffReport {
  const tools: ToolDiff[] = Array.from({ length: count }, (_unused, index) => ({
    name: `tool_${String(index).padStart(4, "0")}`,
    status: "changed",
    toolTeams: "none",
    models: "breaking",
    changes: Array.from({ length: 5 }, (_none, n) => ({
      path: `/field_${n}`,
      schemaPointer: `/properties/field_${n}/maxLength`,
      keyword: "maxLength",
      kind: "schema",
      toolTeams: "none",
      models: "breaking",
      message: `/field_${n}: maxLength tightened from 200 to 100; values between now fail`,
    })),
  }));
  return {
    base: "main (1234567)",
    head: "working tree",
    toolTeams: "none",
    models: "breaking",
    sets: [{ schemas: "schemas", bump: "minor", tools, unchanged: 3 }],
  };
}

describe("renderMarkdown", () => {
  it("a few tools: every row and every detail block", () => {
    const text = renderMarkdown(report(3));
    expect(text.match(/<details>/g)).toHaveLength(3);
    expect(text).toContain("| `/field_0` | `maxLength` | – | breaking | maxLength tightened from 200 to 100; values between now fail |");
    expect(text).not.toContain("left out");
  });

  it.each([400, 2000])("%i tools: under GitHub's limit, with what was left out counted", (count) => {
    const text = renderMarkdown(report(count));
    expect(text.length).toBeLessThan(65_536);
    expect(text).toContain(`| … and ${count - 300} more`);
    expect(text).toMatch(/_\d+ tools' details left out to fit a comment/);
  });
});

describe("renderText", () => {
  it("one line per tool, its changes below without repeating the path", () => {
    const text = renderText(report(1));
    expect(text).toContain(
      "schemas: 1 tool changed, 3 unchanged; package version bump: minor (patch below 1.0.0)\n  tool_0000: changed, breaking for models\n    /field_0  [tool teams -, models breaking]  maxLength tightened from 200 to 100; values between now fail\n",
    );
  });
});
