// The report as GitHub-flavoured markdown, for a PR comment or a CI job summary
// (`toolguard report --markdown >> "$GITHUB_STEP_SUMMARY"`). Markdown renders HTML, so every
// name and value from the ledger is escaped for both before it reaches a table cell.
import { escapeControls } from "../report.ts";
import type { Analysis, ToolAnalysis } from "./analysis.ts";
import type { Finding } from "./diagnose.ts";

/** Findings in the table; past it, a line says how many more (a PR comment has a size limit). */
const FINDINGS_SHOWN = 50;

export function formatMarkdown(analysis: Analysis, gate?: GateResult): string {
  const { healthyPerThousand: healthy, defectPerThousand: defect } = analysis.thresholds;
  const lines = ["## toolguard report", ""];
  if (analysis.tools.length === 0) return `${lines.join("\n")}\nThe ledger is empty: no tool calls recorded yet.\n`;
  lines.push(
    `${analysis.calls} calls from ${analysis.from ?? "?"} to ${analysis.to ?? "?"}, ${analysis.failedCalls} failed. Healthy is under ${healthy} failed calls per 1000; over ${defect} is a schema defect.`,
    "",
  );
  if (gate !== undefined)
    lines.push(
      gate.failing.length === 0
        ? `**Gate passed:** every tool is at or under ${gate.limit} failed calls per 1000.`
        : `**Gate failed:** ${gate.failing.map((tool) => `${cell(tool.tool)} (${tool.perThousand})`).join(", ")} over ${gate.limit} failed calls per 1000.`,
      "",
    );
  if (analysis.alarms.length > 0) lines.push("### Changes", "", ...analysis.alarms.map((alarm) => `- ${cell(alarm.message)}`), "");
  lines.push(
    "### Tools",
    "",
    "| tool | calls | failed | per 1000 | health | repaired | exhausted | ambiguous | truncated |",
    "|---|--:|--:|--:|---|--:|--:|--:|--:|",
  );
  for (const tool of analysis.tools) lines.push(toolRow(tool));
  lines.push("");
  if (analysis.findings.length > 0) {
    lines.push("### Findings", "", "| severity | tool | rule | at | per 1000 | sent instead | change | where |", "|---|---|---|---|--:|---|---|---|");
    for (const finding of analysis.findings.slice(0, FINDINGS_SHOWN)) lines.push(findingRow(finding));
    if (analysis.findings.length > FINDINGS_SHOWN)
      lines.push("", `... and ${analysis.findings.length - FINDINGS_SHOWN} more findings (\`toolguard report --json\`).`);
    lines.push("");
  }
  if (analysis.advice.length > 0) {
    lines.push("### Schema advice before traffic", "", "| tool | kind | where | finding | change |", "|---|---|---|---|---|");
    for (const advice of analysis.advice)
      lines.push(
        `| ${cell(advice.tool)} | ${cell(advice.kind)} | ${code(`${advice.file}#${advice.pointer}`)} | ${cell(advice.finding)} | ${cell(advice.change)} |`,
      );
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

function toolRow(tool: ToolAnalysis): string {
  const r = tool.repairs;
  return `| ${cell(tool.tool)} | ${tool.calls} | ${tool.failedCalls} | ${tool.perThousand} | ${tool.health} | ${r.repaired} | ${r.exhausted} | ${tool.ambiguousCalls} | ${tool.truncatedCalls} |`;
}

function findingRow(finding: Finding): string {
  const sent = finding.topValues
    .slice(0, 3)
    .map((value) => `${code(value.value)} ×${value.calls}`)
    .join(", ");
  const where = `${finding.location.file ?? "(no schema file found)"}#${finding.location.schemaPointer}`;
  return `| ${finding.severity} | ${cell(finding.tool)} | ${cell(finding.rule)} | ${code(finding.location.argumentPointer || "(the arguments)")} | ${finding.perThousand} | ${sent} | ${cell(finding.change)} | ${code(where)} |`;
}

/** Text safe in a table cell: no HTML, no pipe, no line break, no control character. */
export function cell(text: string): string {
  return escapeControls(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/[\\`*_[\]#|]/g, (c) => `\\${c}`);
}

/** Text as inline code in a cell: the longest backtick run is fenced around. */
function code(text: string): string {
  const shown = escapeControls(text).replaceAll("|", "\\|");
  const fence = "`".repeat(Math.max(0, ...[...shown.matchAll(/`+/g)].map((run) => run[0].length)) + 1);
  return `${fence}${fence.length > 1 ? " " : ""}${shown}${fence.length > 1 ? " " : ""}${fence}`;
}

/** The CI gate: the tools over `limit` failed calls per 1000. */
export interface GateResult {
  readonly limit: number;
  readonly failing: readonly { readonly tool: string; readonly perThousand: number }[];
}

export function gate(analysis: Analysis, limit: number): GateResult {
  return { limit, failing: analysis.tools.filter((tool) => tool.perThousand > limit).map((tool) => ({ tool: tool.tool, perThousand: tool.perThousand })) };
}
