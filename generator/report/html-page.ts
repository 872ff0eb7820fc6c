// The report as one self-contained HTML page: no request leaves it (a Content-Security-Policy
// forbids any), so it works offline and a hostile ledger value can neither load nor run
// anything. Tools are sorted worst first, each row with its own rate sparkline and repair
// outcomes, and a filter box narrows the table: it stays usable at 100 tools and more.
import { createHash } from "node:crypto";
import type { Analysis, RepairOutcomes, ToolAnalysis } from "./analysis.ts";
import type { Finding } from "./diagnose.ts";
import { barChart, COLOURS, escapeHtml, rateChart, type Segment, type Series, stackedBar } from "./svg-charts.ts";

/** Tools drawn in the big rate chart (the worst); every tool has its own sparkline in the table. */
const TOOLS_CHARTED = 8;
/** Findings whose offending values are charted. */
const VALUE_CHARTS = 12;
/** Below this many days of traffic, the charts use hourly windows instead of days. */
const HOURLY_BELOW_DAYS = 3;

/** Filters the tools table by name; the only script, allowed by its hash. */
const SCRIPT = `const box=document.getElementById("filter");box.addEventListener("input",()=>{const q=box.value.toLowerCase();let shown=0;for(const row of document.querySelectorAll("#tools tbody tr")){const on=row.dataset.tool.toLowerCase().includes(q);row.hidden=!on;if(on)shown++;}document.getElementById("shown").textContent=String(shown);});`;

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111;max-width:1200px}h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e5e7eb;padding:3px 6px;text-align:left;vertical-align:top}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.healthy{color:#15803d}.watch{color:#a16207}.defect{color:#b91c1c;font-weight:600}.legend span{display:inline-block;margin-right:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
code{background:#f3f4f6;padding:0 3px;overflow-wrap:break-word}.scroll{max-height:640px;overflow:auto}td.at{min-width:150px;max-width:260px}td.where{min-width:240px;max-width:320px}td.where code{overflow-wrap:anywhere}.values{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:8px 24px}
#filter{padding:4px;width:260px}.alarm{color:#b91c1c}`;

export function renderHtml(analysis: Analysis): string {
  const hash = createHash("sha256").update(SCRIPT).digest("base64");
  const tools = [...analysis.tools].sort((a, b) => b.perThousand - a.perThousand || (a.tool < b.tool ? -1 : 1));
  const hourly =
    analysis.from !== undefined && analysis.to !== undefined && Date.parse(analysis.to) - Date.parse(analysis.from) < HOURLY_BELOW_DAYS * 86_400_000;
  const { healthyPerThousand: healthy, defectPerThousand: defect } = analysis.thresholds;
  const seriesOf = (tool: ToolAnalysis): Series => ({
    name: tool.tool,
    points: (hourly ? tool.windows.hour : tool.windows.day).map((point) => [Date.parse(point.start), point.perThousand] as const),
  });
  const body: string[] = [
    `<h1>toolguard report</h1>`,
    `<p id="summary" data-calls="${analysis.calls}" data-failed="${analysis.failedCalls}">${analysis.calls} calls from ${escapeHtml(analysis.from ?? "?")} to ${escapeHtml(analysis.to ?? "?")}, ${analysis.failedCalls} failed, over ${analysis.tools.length} tools. Healthy is under ${healthy} failed calls per 1000 (1%); over ${defect} (5%) is a schema defect worth an afternoon.</p>`,
  ];
  if (analysis.alarms.length > 0)
    body.push(
      `<h2>Changes</h2><ul id="alarms">${analysis.alarms.map((alarm) => `<li class="alarm" data-tool="${escapeHtml(alarm.tool)}">${escapeHtml(alarm.message)}</li>`).join("")}</ul>`,
    );
  const charted = tools.filter((tool) => tool.calls > 0).slice(0, TOOLS_CHARTED);
  body.push(
    `<h2>Failure rate over time (${hourly ? "per hour" : "per day"}), the ${charted.length} worst tools</h2>`,
    `<div id="rate-chart">${rateChart(charted.map(seriesOf), healthy, defect)}</div>`,
    `<p class="legend">${charted.map((tool, index) => `<span><i style="background:${COLOURS.lines[index % COLOURS.lines.length]}"></i>${escapeHtml(tool.tool)}</span>`).join("")}<span><i style="background:${COLOURS.healthy}"></i>healthy</span><span><i style="background:${COLOURS.watch}"></i>watch</span><span><i style="background:${COLOURS.defect}"></i>schema defect</span></p>`,
    `<h2>Tools, worst first</h2>`,
    `<p><label>Filter tools <input id="filter" type="search" placeholder="tool name"></label> <span id="shown">${tools.length}</span> of ${tools.length} shown</p>`,
    `<div class="scroll"><table id="tools"><thead><tr><th>tool</th><th class="num">calls</th><th class="num">failed</th><th class="num">per 1000</th><th>health</th><th>rate over time</th><th>repair outcomes</th><th class="num">repaired</th><th class="num">exhausted</th><th class="num">ambiguous</th><th class="num">truncated</th></tr></thead><tbody>`,
    ...tools.map((tool) => toolRow(tool, seriesOf(tool), healthy, defect)),
    `</tbody></table></div>`,
    outcomeLegend(),
    `<h2>Failures by rule</h2>`,
    `<div id="rules-chart">${barChart(ruleBars(analysis), { label: "failed calls by rule" })}</div>`,
    `<h2>Top offending values</h2>`,
    `<div class="values" id="values">${valueCharts(analysis.findings)}</div>`,
    `<h2>Findings</h2>`,
    findingsTable(analysis.findings),
    `<h2>Repair outcomes, all tools</h2>`,
    `<div id="outcomes">${stackedBar(segments(total(analysis.tools)), { width: 760, height: 22, label: "repair outcomes of every chain" })}</div>`,
    outcomeLegend(total(analysis.tools)),
    `<h2>Schema advice before traffic</h2>`,
    analysis.advice.length === 0
      ? `<p id="advice">No schema advice in this report (<code>toolguard generate</code> prints it from the schemas alone).</p>`
      : `<div class="scroll"><table id="advice"><thead><tr><th>tool</th><th>kind</th><th>where</th><th>finding</th><th>change</th></tr></thead><tbody>${analysis.advice
          .map(
            (item) =>
              `<tr data-tool="${escapeHtml(item.tool)}"><td>${escapeHtml(item.tool)}</td><td>${escapeHtml(item.kind)}</td><td><code>${escapeHtml(`${item.file}#${item.pointer}`)}</code></td><td>${escapeHtml(item.finding)}</td><td>${escapeHtml(item.change)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`,
  );
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'">`,
    `<meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<title>toolguard report</title><style>${STYLE}</style></head><body>`,
    ...body,
    `<script>${SCRIPT}</script></body></html>`,
    "",
  ].join("\n");
}

function toolRow(tool: ToolAnalysis, series: Series, healthy: number, defect: number): string {
  const health = tool.health === "schema defect" ? "defect" : tool.health;
  const r = tool.repairs;
  return `<tr data-tool="${escapeHtml(tool.tool)}"><td class="tool">${escapeHtml(tool.tool)}</td><td class="num calls">${tool.calls}</td><td class="num failed">${tool.failedCalls}</td><td class="num rate">${tool.perThousand}</td><td class="health ${health}">${tool.health}</td><td>${rateChart([series], healthy, defect, { width: 160, height: 28, axes: false, label: `${tool.tool}: failed calls per 1000 over time` })}</td><td>${stackedBar(segments(r), { label: `${tool.tool}: repair outcomes` })}</td><td class="num repaired">${r.repaired}</td><td class="num exhausted">${r.exhausted}</td><td class="num ambiguous">${tool.ambiguousCalls}</td><td class="num truncated">${tool.truncatedCalls}</td></tr>`;
}

const OUTCOMES = ["firstTime", "repaired", "exhausted", "ambiguous", "abandoned", "open", "other"] as const;
const OUTCOME_NAMES: Readonly<Record<(typeof OUTCOMES)[number], string>> = {
  firstTime: "passed first time",
  repaired: "repaired",
  exhausted: "repair budget exhausted",
  ambiguous: "ended ambiguous",
  abandoned: "abandoned",
  open: "still open",
  other: "other",
};

function segments(outcomes: Omit<RepairOutcomes, "successRate">): Segment[] {
  return OUTCOMES.map((name) => ({ name, value: outcomes[name], colour: COLOURS.outcomes[name] }));
}

function total(tools: readonly ToolAnalysis[]): Omit<RepairOutcomes, "successRate"> {
  const sum = { firstTime: 0, repaired: 0, exhausted: 0, ambiguous: 0, abandoned: 0, open: 0, other: 0 };
  for (const tool of tools) for (const name of OUTCOMES) sum[name] += tool.repairs[name];
  return sum;
}

function outcomeLegend(counts?: Omit<RepairOutcomes, "successRate">): string {
  return `<p class="legend">${OUTCOMES.map((name) => `<span><i style="background:${COLOURS.outcomes[name]}"></i>${OUTCOME_NAMES[name]}${counts ? ` <b class="outcome-${name}">${counts[name]}</b>` : ""}</span>`).join("")}</p>`;
}

function ruleBars(analysis: Analysis): { label: string; value: number }[] {
  const rules = new Map<string, number>();
  for (const tool of analysis.tools) for (const rule of tool.rules) rules.set(rule.rule, (rules.get(rule.rule) ?? 0) + rule.failedCalls);
  return [...rules.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 20)
    .map(([label, value]) => ({ label, value }));
}

function valueCharts(findings: readonly Finding[]): string {
  const charted = findings.filter((finding) => finding.topValues.length > 0).slice(0, VALUE_CHARTS);
  if (charted.length === 0) return "<p>No finding carries offending values.</p>";
  return charted
    .map(
      (finding) =>
        `<figure data-tool="${escapeHtml(finding.tool)}" data-pointer="${escapeHtml(finding.location.argumentPointer)}"><figcaption><b>${escapeHtml(finding.tool)}</b> ${escapeHtml(finding.rule)} at <code>${escapeHtml(finding.location.argumentPointer || "(the arguments)")}</code></figcaption>${barChart(
          finding.topValues.map((value) => ({ label: value.value, value: value.calls })),
          { label: `values sent at ${finding.location.argumentPointer}`, colour: COLOURS.lines[1] },
        )}</figure>`,
    )
    .join("");
}

function findingsTable(findings: readonly Finding[]): string {
  if (findings.length === 0) return `<p id="findings">No rule fails on more than 1 call in 100 of any tool.</p>`;
  const rows = findings.map((finding) => {
    const severity = finding.severity === "schema defect" ? "defect" : "watch";
    const where = `${finding.location.file ?? "(no schema file found)"}#${finding.location.schemaPointer}`;
    return `<tr data-tool="${escapeHtml(finding.tool)}" data-rule="${escapeHtml(finding.rule)}"><td class="${severity}">${finding.severity}</td><td>${escapeHtml(finding.tool)}</td><td>${escapeHtml(finding.rule)}</td><td class="at"><code>${escapeHtml(finding.location.argumentPointer || "(the arguments)")}</code></td><td class="num rate">${finding.perThousand}</td><td>${prose(finding.diagnosis)}</td><td>${prose(finding.change)}</td><td class="where"><code>${escapeHtml(where)}</code></td></tr>`;
  });
  return `<div class="scroll"><table id="findings"><thead><tr><th>severity</th><th>tool</th><th>rule</th><th>at</th><th class="num">per 1000</th><th>diagnosis</th><th>change</th><th>where</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

/** A diagnosis or change as HTML: escaped, with its `pointer` spans shown as code. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}
