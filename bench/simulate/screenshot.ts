// `npx node bench/simulate/screenshot.ts`: the README's picture of the report page. A simulated
// week (traffic.ts, the default mix, create_invoice regressing from day 4) reported with --html,
// opened in headless Chromium (/usr/bin/chromium) and saved as docs/images/report-page.png.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { main } from "../../generator/cli.ts";
import { simulateTraffic } from "./traffic.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "toolguard-screenshot-"));
try {
  const ledger = path.join(dir, "ledger.jsonl");
  await simulateTraffic({
    ledger,
    turns: 20_000,
    changes: [{ tool: "create_invoice", fromDay: 4, mix: { wrong_enum: 0.08, wrong_type: 0.03, ambiguous_reference: 0.02 } }],
  });
  const page = path.join(dir, "report.html");
  const code = await main(["report", ledger, "--html", page, "--schemas", path.join(REPO, "schemas"), "--markdown"], REPO);
  if (code !== 0) throw new Error(`toolguard report exited ${code}`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1240, height: 1000 }, deviceScaleFactor: 1 });
    await tab.goto(`file://${page}`);
    await tab.screenshot({ path: path.join(REPO, "docs/images/report-page.png"), fullPage: false });
  } finally {
    await browser.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
