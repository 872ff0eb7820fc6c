// The HTML page in headless Chromium (Debian's package, driven by playwright-core over CDP, no
// browser download): it renders with no console error, its numbers are the JSON report's for
// the same ledger, and it stays usable at 100 tools. Without /usr/bin/chromium the test is
// skipped, saying so; with TOOLGUARD_REQUIRE_CHROMIUM=1 (set by .ci/run) that is a failure.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulateTraffic } from "../../bench/simulate/traffic.ts";
import type { Analysis } from "../../generator/report/analysis.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.TOOLGUARD_REQUIRE_CHROMIUM === "1")
  throw new Error(`TOOLGUARD_REQUIRE_CHROMIUM=1, but there is no ${CHROMIUM} (apt-get install chromium)`);
if (!available) console.warn(`page-chromium: skipped, no ${CHROMIUM} (apt-get install chromium)`);

let browser: Browser;
let project: TempProject;
const dir = mkdtempSync(path.join(tmpdir(), "toolguard-page-"));

beforeAll(async () => {
  if (!available) return;
  project = new TempProject();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  project?.remove();
  rmSync(dir, { recursive: true, force: true });
});

interface Rendered {
  readonly errors: string[];
  readonly analysis: Analysis;
  readonly page: import("playwright-core").Page;
}

/** Writes the report of `ledger` as --json and --html, opens the page and records every console error. */
async function open(ledger: string): Promise<Rendered> {
  const json = await project.run("report", ledger, "--json", "--html", path.join(dir, "page.html"), "--schemas", path.join(REPO, "schemas"));
  expect(json.code).toBe(0);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    if (!request.url().startsWith("file:")) errors.push(`request to ${request.url()}`);
  });
  await page.goto(`file://${path.join(dir, "page.html")}`);
  return { errors, analysis: JSON.parse(json.stdout) as Analysis, page };
}

const cells = (page: Rendered["page"], selector: string) => page.$$eval(selector, (nodes) => nodes.map((node) => node.textContent ?? ""));

describe.skipIf(!available)("the report page in headless Chromium", () => {
  it("renders with no console error, and its numbers are the JSON report's", async () => {
    const ledger = path.join(dir, "week.jsonl");
    await simulateTraffic({ ledger, turns: 4000, seed: 21 });
    const { errors, analysis, page } = await open(ledger);
    expect(errors).toEqual([]);
    const byRate = [...analysis.tools].sort((a, b) => b.perThousand - a.perThousand || (a.tool < b.tool ? -1 : 1));
    expect(await cells(page, "#tools tbody td.tool")).toEqual(byRate.map((tool) => tool.tool));
    expect(await cells(page, "#tools tbody td.calls")).toEqual(byRate.map((tool) => String(tool.calls)));
    expect(await cells(page, "#tools tbody td.failed")).toEqual(byRate.map((tool) => String(tool.failedCalls)));
    expect(await cells(page, "#tools tbody td.rate")).toEqual(byRate.map((tool) => String(tool.perThousand)));
    expect(await cells(page, "#tools tbody td.repaired")).toEqual(byRate.map((tool) => String(tool.repairs.repaired)));
    expect(await cells(page, "#tools tbody td.exhausted")).toEqual(byRate.map((tool) => String(tool.repairs.exhausted)));
    expect(await cells(page, "#tools tbody td.ambiguous")).toEqual(byRate.map((tool) => String(tool.ambiguousCalls)));
    expect(await cells(page, "#findings tbody td.rate")).toEqual(analysis.findings.map((finding) => String(finding.perThousand)));
    expect(await page.$eval("#summary", (node) => [node.getAttribute("data-calls"), node.getAttribute("data-failed")])).toEqual([
      String(analysis.calls),
      String(analysis.failedCalls),
    ]);
    const repaired = analysis.tools.reduce((sum, tool) => sum + tool.repairs.repaired, 0);
    expect(await page.$eval("b.outcome-repaired", (node) => node.textContent)).toBe(String(repaired));
    // The charts drew: a line per charted tool over the bands, and a bar per rule.
    expect(await page.$$eval("#rate-chart path.series", (nodes) => nodes.length)).toBe(analysis.tools.length);
    expect(await page.$$eval("#rate-chart rect.band-watch", (nodes) => nodes.length)).toBe(1);
    const ruleTotal = new Map<string, number>();
    for (const tool of analysis.tools) for (const rule of tool.rules) ruleTotal.set(rule.rule, (ruleTotal.get(rule.rule) ?? 0) + rule.failedCalls);
    const bars = await page.$$eval("#rules-chart g.bar", (nodes) =>
      nodes.map((node) => [node.getAttribute("data-label"), Number(node.getAttribute("data-value"))]),
    );
    expect(bars.length).toBeGreaterThan(3);
    for (const [rule, value] of bars) expect(value).toBe(ruleTotal.get(rule as string));
    await page.close();
  });

  it("stays usable at 100 tools: worst first, a bounded page, a filter that works", async () => {
    // The simulated guard's own lines, spread over 100 tool names.
    const source = path.join(dir, "four.jsonl");
    await simulateTraffic({ ledger: source, turns: 6000, seed: 8 });
    const lines = readFileSync(source, "utf8").trimEnd().split("\n");
    const renamed = lines.map((line) => {
      const entry = JSON.parse(line) as { chain: string; tool: string };
      const spread = Number.parseInt(entry.chain.slice(-4), 16) % 25;
      return JSON.stringify({ ...entry, tool: `${entry.tool}_${String(spread).padStart(2, "0")}` });
    });
    const ledger = path.join(dir, "hundred.jsonl");
    writeFileSync(ledger, `${renamed.join("\n")}\n`);
    const { errors, analysis, page } = await open(ledger);
    expect(errors).toEqual([]);
    expect(analysis.tools).toHaveLength(100);
    expect(await page.$$eval("#tools tbody tr", (rows) => rows.length)).toBe(100);
    // The big chart draws the 8 worst; every row has its own sparkline.
    expect(await page.$$eval("#rate-chart path.series", (nodes) => nodes.length)).toBe(8);
    expect(await page.$$eval("#tools tbody tr svg", (nodes) => nodes.length)).toBe(200);
    // The page does not grow wide, and the table scrolls inside its box.
    // (A string: the test's own types have no DOM.)
    const size = (await page.evaluate(
      '({ width: document.documentElement.scrollWidth, table: document.querySelector(".scroll").getBoundingClientRect().height })',
    )) as { width: number; table: number };
    expect(size.width).toBeLessThanOrEqual(1280);
    expect(size.table).toBeLessThanOrEqual(640);
    await page.fill("#filter", "search_tickets_07");
    expect(await page.$$eval("#tools tbody tr:not([hidden])", (rows) => rows.map((row) => row.getAttribute("data-tool")))).toEqual(["search_tickets_07"]);
    expect(await page.$eval("#shown", (node) => node.textContent)).toBe("1");
    expect(errors).toEqual([]);
    await page.close();
  });
});
