// The renderers: a pull-request comment stays under GitHub's 65,536-character limit however
// many tools changed, and says what it left out; the terminal view drops the path it already shows.
import { describe, expect, it } from "vitest";
import type { ToolDiff } from "../../generator/diff/change.ts";
import type { DiffReport } from "../../generator/diff/diff-report.ts";
import { MAX_COMMENT, renderMarkdown } from "../../generator/diff/render-markdown.ts";
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

/** `count` tools whose changes differ by tool (`distinct`) or read the same. */
function varied(count: number, distinct = true): DiffReport {
  const base = report(count);
  const tools = base.sets[0]?.tools.map((tool, index) => ({
    ...tool,
    title: `POST /things/${index}`,
    changes: tool.changes.map((change) => ({ ...change, message: distinct ? `${change.message} (tool ${index})` : change.message })),
  }));
  return { ...base, sets: [{ schemas: "schemas", bump: "minor", tools: tools ?? [], unchanged: 3 }] };
}

describe("renderMarkdown", () => {
  it("a few tools: a summary first, then every detail block, with the tool's method and path", () => {
    const text = renderMarkdown(varied(3));
    expect(text.split("\n").slice(4, 12).join("\n")).toContain("**3 tools differ** (3 changed; 3 unchanged).");
    expect(text).toContain("| 🔴 breaking | 0 | 3 |");
    expect(text.match(/<details>/g)).toHaveLength(3);
    expect(text).toContain("<code>tool_0001</code> POST /things/1: breaking for models (5 changes)</summary>");
    expect(text).toContain(
      "| <code>/field\\_0</code> | <code>maxLength</code> | – | breaking | maxLength tightened from 200 to 100; values between now fail \\(tool 0\\) |",
    );
    expect(text).not.toContain("left out");
  });

  it("tools whose changes read the same share one block, and identical rows are counted", () => {
    const text = renderMarkdown(varied(3, false));
    expect(text.match(/<details>/g)).toHaveLength(1);
    expect(text).toContain("<code>tool_0000</code> POST /things/0 and 2 more with the same changes");
    expect(text).toContain("Also: <code>tool\\_0001</code>, <code>tool\\_0002</code>.");
    const [tool] = report(1).sets[0]?.tools ?? [];
    const doubled = report(1);
    const twice = {
      ...doubled,
      sets: [{ ...doubled.sets[0], tools: [{ ...tool, changes: [...(tool?.changes ?? []), ...(tool?.changes ?? [])] }] }],
    } as DiffReport;
    expect(renderMarkdown(twice)).toContain("values between now fail (×2) |");
  });

  it.each([400, 2000])("%i tools: within the budget, every left-out tool named or counted", (count) => {
    const text = renderMarkdown(varied(count));
    expect(MAX_COMMENT).toBeLessThan(65_536 * 0.7);
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT);
    const left = /<summary>(\d+) more tools, details left out/.exec(text);
    const shown = text.match(/<details><summary>🔴 <code>/g)?.length ?? 0;
    expect(Number(left?.[1]) + shown).toBe(count);
    expect(text).toMatch(/, and \d+ more\.|tool\\_\d{4}<\/code>\./);
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

// Issue 27, finding 6: every text a schema, the config or the ledger puts in the comment is
// inert: no HTML, no line break that starts a block, no @mention, link, image or autolink.
describe("renderMarkdown: hostile text stays text", () => {
  const HOSTILE =
    "x\n<!--\r\n@octocat @org/team [click](https://evil.example) ![i](https://evil.example/p.png) <img src=x onerror=alert(1)> `tick` | pipe www.evil.com a@b.example \u2028 -->";
  const hostileReport = (): DiffReport => ({
    base: `main ${HOSTILE}`,
    head: HOSTILE,
    toolTeams: "breaking",
    models: "breaking",
    sets: [
      {
        schemas: HOSTILE,
        bump: "major",
        version: { base: HOSTILE, next: "2.0.0" },
        unchanged: 0,
        ledger: { [HOSTILE]: { checked: 2, failing: 1, share: 0.5, examples: [{ chain: HOSTILE, errors: [HOSTILE] }] } },
        tools: [
          {
            name: HOSTILE,
            status: "renamed",
            previousName: HOSTILE,
            toolTeams: "breaking",
            models: "breaking",
            changes: [
              { path: `/${HOSTILE}`, schemaPointer: "/x", keyword: HOSTILE, kind: "schema", toolTeams: "breaking", models: "breaking", message: HOSTILE },
            ],
          },
        ],
      },
    ],
  });

  const text = renderMarkdown(hostileReport());
  /** The comment with its own markup and every backslash-escaped character taken out. */
  const bare = text
    .replace(/<\/?(?:details|summary|code|sub)>/g, "")
    .replace(/`(?:toolguard diff|--format json)`/g, "")
    .replace(/\\[\\`*_{}[\]()#+\-.!|~]/g, "");

  it("no HTML but the comment's own tags, no HTML comment", () => {
    expect(bare).not.toMatch(/[<>]/);
    expect(text).not.toContain("<!--");
    expect(text).not.toContain("<img");
  });

  it("no line break from the text: every table row and the summary stay one line", () => {
    for (const line of text.split("\n")) {
      if (line.startsWith("|")) expect(line.endsWith("|"), line).toBe(true);
      expect(line).not.toMatch(/[\r\u2028\u2029]/);
    }
    expect(text.split("\n").filter((line) => line.startsWith("<details><summary>"))).toHaveLength(1);
    // The summary row of the tool and its change row: one cell each per column.
    const row = text.split("\n").find((line) => line.startsWith("| <code>/x"));
    expect(row?.replace(/\\\|/g, "").split("|")).toHaveLength(7);
  });

  it("no @mention, link, image, autolink or code span", () => {
    expect(text).not.toMatch(/@[\w/]/);
    expect(bare).not.toContain("](");
    expect(bare).not.toContain("![");
    expect(bare).not.toContain("[");
    expect(text).not.toContain("://");
    expect(bare.replace(/\\/g, "")).not.toMatch(/www[.]|www&#46;/i);
    expect(bare).not.toContain("`");
  });

  it("the words are still there for a reader", () => {
    expect(text).toContain("octocat");
    expect(text).toContain("click");
  });
});
