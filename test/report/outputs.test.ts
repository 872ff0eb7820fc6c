// `toolguard report`'s outputs on one simulated ledger: the terminal, --json, --markdown, the
// CI gate --fail-above, the --html page (self-contained), and clear errors for bad options.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulateTraffic } from "../../bench/simulate/traffic.ts";
import type { Analysis } from "../../generator/report/analysis.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

let project: TempProject;
beforeAll(async () => {
  project = new TempProject();
  cpSync(path.join(REPO, "schemas"), path.join(project.dir, "schemas"), { recursive: true });
  await simulateTraffic({ ledger: path.join(project.dir, "ledger.jsonl"), turns: 3000, seed: 9 });
});
afterAll(() => project.remove());

describe("toolguard report outputs", () => {
  it("prints findings with the change and the schema file and pointer in the terminal", async () => {
    const result = await project.run("report", "ledger.jsonl");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^create_invoice: \d+ calls, \d+ failed \([\d.]+ per 1000\) — schema defect/m);
    expect(result.stdout).toMatch(/\[(watch|schema defect)\] create_invoice enum at \/currency: [\d.]+ per 1000 \(healthy < 10, defect > 50\)/);
    expect(result.stdout).toContain('change: add "euro" as an alias of "EUR"');
    expect(result.stdout).toContain("at schemas/create-invoice.json#/inputSchema/properties/currency");
  });

  it("--json is the analysis the other outputs print", async () => {
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    const analysis = JSON.parse(result.stdout) as Analysis;
    expect(analysis.thresholds).toEqual({ healthyPerThousand: 10, defectPerThousand: 50 });
    expect(analysis.tools.map((tool) => tool.tool)).toEqual(["create_invoice", "schedule_meeting", "search_tickets", "update_org_chart"]);
    expect(analysis.calls).toBe(analysis.tools.reduce((sum, tool) => sum + tool.calls, 0));
    expect(analysis.findings.length).toBeGreaterThan(3);
  });

  it("--markdown: tables for a PR comment, with the gate's verdict", async () => {
    const result = await project.run("report", "ledger.jsonl", "--markdown", "--fail-above", "50");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^## toolguard report\n/);
    expect(result.stdout).toMatch(/\*\*Gate failed:\*\* create\\_invoice \([\d.]+\), schedule\\_meeting \([\d.]+\)/);
    expect(result.stdout).toMatch(/^\| create\\_invoice \| \d+ \| \d+ \| [\d.]+ \| schema defect \|/m);
    expect(result.stdout).toMatch(/^\| (watch|schema defect) \| create\\_invoice \| enum \| `\/currency` \| [\d.]+ \| `"euro"` ×\d+/m);
  });

  it("--fail-above: exit 1 naming the tools over the rate, 0 when none is", async () => {
    const over = await project.run("report", "ledger.jsonl", "--fail-above", "20");
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/over 20 failed calls per 1000: "create_invoice" \([\d.]+\), "schedule_meeting" \([\d.]+\), "update_org_chart" \([\d.]+\)\n$/);
    const under = await project.run("report", "ledger.jsonl", "--fail-above", "500");
    expect(under.code).toBe(0);
    expect(under.stderr).toBe("");
  });

  it("--html writes one self-contained page that loads nothing", async () => {
    const result = await project.run("report", "ledger.jsonl", "--html", "report.html");
    expect(result.code).toBe(0);
    const page = project.read("report.html");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain(`Content-Security-Policy" content="default-src 'none'`);
    expect(page).not.toMatch(/\b(src|href)=|@import|url\(/);
    expect(page).toContain('<tr data-tool="create_invoice">');
    expect(page.match(/<svg /g)?.length).toBeGreaterThan(8);
  });

  it("refuses bad options with a clear message and exit 2, writing nothing", async () => {
    const cases: [string[], RegExp][] = [
      [["--fail-above", "ten"], /--fail-above takes failed calls per 1000 calls, such as 10 or 2\.5, got "ten"/],
      [["--fail-above=-1"], /--fail-above takes failed calls per 1000 calls/],
      [["--json", "--markdown"], /--json or --markdown, not both/],
      [["--html", "nowhere/page.html"], /--html: no folder .*nowhere to write page\.html into/],
      [["--schemas", "missing"], /--schemas: no folder at .*missing/],
    ];
    for (const [args, message] of cases) {
      const result = await project.run("report", "ledger.jsonl", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
    const misplaced = await project.run("generate", "--fail-above", "5");
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toMatch(/--fail-above is an option of report, not of generate/);
  });

  it("escapes what a hostile ledger writes, in markdown and in the page", async () => {
    const hostile = new TempProject();
    try {
      const tool = "x</td><script>alert(1)</script>|`*";
      const attempt = {
        raw: '{"a":"<img src=x onerror=alert(1)>"}',
        failure: "structural",
        errors: [{ path: "/a", rule: "enum", message: "m" }],
        coercions: [],
      };
      const line = (index: number) =>
        JSON.stringify({
          v: 1,
          chain: `c${index}`,
          tool,
          turn: "t",
          startedAt: "2026-11-02T00:00:00.000Z",
          verdict: "rejected",
          attempts: [attempt],
          repairs: 0,
        });
      hostile.write("ledger.jsonl", `${[0, 1, 2].map(line).join("\n")}\n`);
      const markdown = await hostile.run("report", "ledger.jsonl", "--markdown", "--html", "page.html");
      expect(markdown.code).toBe(0);
      // Outside code spans (which GitHub shows as text), no tag survives.
      const prose = markdown.stdout.replace(/(`+)[^`]*?\1/g, "");
      expect(prose).not.toMatch(/<[a-z/]/i);
      expect(markdown.stdout).toContain("x&lt;/td&gt;&lt;script&gt;");
      const page = hostile.read("page.html");
      expect(page).not.toMatch(/<script>alert|<img/);
      expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    } finally {
      hostile.remove();
    }
  });
});

describe("schema advice in the report", () => {
  it("prints the advice it is given in every output, escaped", async () => {
    const { analyse } = await import("../../generator/report/analysis.ts");
    const { ReportFold } = await import("../../generator/report/fold.ts");
    const { formatText } = await import("../../generator/report/format-text.ts");
    const { formatMarkdown } = await import("../../generator/report/format-markdown.ts");
    const { renderHtml } = await import("../../generator/report/html-page.ts");
    const fold = new ReportFold();
    fold.add({
      v: 1,
      chain: "c",
      tool: "create_invoice",
      turn: "t",
      startedAt: "2026-11-02T00:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw: "{}", errors: [], coercions: [] }],
      repairs: 0,
    });
    const advice = [
      {
        tool: "create_invoice",
        kind: "invented-id",
        file: "create-invoice.json",
        pointer: "/properties/customer_id",
        finding: "an identifier the model must <invent>",
        change: "mark it x-toolguard-reference",
      },
    ];
    const analysis = analyse(fold.finish(), new Map(), advice);
    expect(formatText(analysis)).toContain("create_invoice invented-id at create-invoice.json#/properties/customer_id: an identifier the model must <invent>");
    expect(formatMarkdown(analysis)).toMatch(
      /\| create\\_invoice \| invented-id \| `create-invoice.json#\/properties\/customer_id` \| an identifier the model must &lt;invent&gt; \|/,
    );
    const page = renderHtml(analysis);
    expect(page).toContain('<table id="advice">');
    expect(page).toContain("must &lt;invent&gt;");
    expect(renderHtml(analyse(new ReportFold().finish()))).toContain('<p id="advice">No schema advice');
  });
});

describe("the report's advice, from the schemas folder", () => {
  it("shows what generate advises about the tools in --schemas, and says so when the folder does not read", async () => {
    mkdirSync(path.join(project.dir, "advised"));
    const tool = {
      name: "create_invoice",
      description: "Create an invoice",
      inputSchema: { type: "object", properties: { currency: { type: "string", default: "EUR" } }, required: ["currency"] },
    };
    writeFileSync(path.join(project.dir, "advised", "create-invoice.json"), JSON.stringify(tool));
    const result = await project.run("report", "ledger.jsonl", "--json", "--schemas", "advised");
    expect(result.code).toBe(0);
    const analysis = JSON.parse(result.stdout) as Analysis;
    expect(analysis.advice).toEqual([expect.objectContaining({ tool: "create_invoice", kind: "required-default", pointer: "/properties/currency" })]);
    mkdirSync(path.join(project.dir, "unreadable"));
    writeFileSync(path.join(project.dir, "unreadable", "broken.json"), "{ not json");
    const broken = await project.run("report", "ledger.jsonl", "--json", "--schemas", "unreadable");
    expect(broken.code).toBe(0);
    expect((JSON.parse(broken.stdout) as Analysis).advice).toEqual([]);
    expect(broken.stderr).toMatch(/no schema advice: .*unreadable does not read as a schema set/);
  });
});
