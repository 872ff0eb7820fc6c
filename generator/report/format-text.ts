// The report in the terminal: one line per tool, its worst rules, then the findings worst first
// with the change to make and where, and the change alarms. Every name from the ledger goes
// through `printable` (anyone who can call a tool writes the ledger).
import { escapeControls, printable } from "../report.ts";
import type { Analysis, ChangeAlarm, ToolAnalysis } from "./analysis.ts";
import type { Finding } from "./diagnose.ts";

/** Rules listed per tool in the terminal; the JSON has them all. */
const RULES_SHOWN = 5;
/** Findings listed in the terminal; the JSON has them all. */
const FINDINGS_SHOWN = 20;

export function formatText(analysis: Analysis): string {
  if (analysis.tools.length === 0) return "The ledger is empty: no tool calls recorded yet.\n";
  const lines: string[] = [];
  if (analysis.from !== undefined) lines.push(`${analysis.calls} calls (${analysis.failedCalls} failed) from ${analysis.from} to ${analysis.to}`, "");
  for (const tool of analysis.tools) lines.push(...toolLines(tool));
  if (analysis.alarms.length > 0) lines.push("", "Changes:", ...analysis.alarms.map((alarm) => `  ${alarmText(alarm)}`));
  if (analysis.findings.length > 0) {
    lines.push("", `Findings (${analysis.findings.length}, worst first):`);
    for (const finding of analysis.findings.slice(0, FINDINGS_SHOWN)) lines.push(...findingLines(finding));
    if (analysis.findings.length > FINDINGS_SHOWN)
      lines.push(`  ... and ${analysis.findings.length - FINDINGS_SHOWN} more (--json or --markdown lists them all)`);
  }
  if (analysis.advice.length > 0) {
    lines.push("", `Schema advice before traffic (${analysis.advice.length}):`);
    for (const advice of analysis.advice)
      lines.push(
        `  ${printable(advice.tool)} ${printable(advice.kind)} at ${printable(advice.file)}#${printable(advice.pointer)}: ${escapeControls(advice.finding)}`,
        `      change: ${escapeControls(advice.change)}`,
      );
  }
  lines.push(
    "",
    `Healthy is under ${analysis.thresholds.healthyPerThousand} failed calls per 1000; over ${analysis.thresholds.defectPerThousand} per 1000 is a schema defect worth an afternoon.`,
  );
  return `${lines.join("\n")}\n`;
}

function toolLines(tool: ToolAnalysis): string[] {
  const repairs = tool.repairs;
  const extra = [
    tool.ambiguousCalls > 0 ? `${tool.ambiguousCalls} ambiguous` : "",
    tool.truncatedCalls > 0 ? `${tool.truncatedCalls} truncated` : "",
    tool.referenceFailures > 0 ? `${tool.referenceFailures} reference failures` : "",
  ].filter(Boolean);
  const lines = [
    `${printable(tool.tool)}: ${tool.calls} call${tool.calls === 1 ? "" : "s"}, ${tool.failedCalls} failed (${tool.perThousand} per 1000) — ${tool.health}; repairs succeeded ${repairs.repaired}, exhausted ${repairs.exhausted}${extra.length > 0 ? `; ${extra.join(", ")}` : ""}`,
  ];
  for (const rule of tool.rules.slice(0, RULES_SHOWN)) lines.push(`  ${printable(rule.rule)}: ${rule.failedCalls} (${rule.perThousand} per 1000)`);
  if (tool.rules.length > RULES_SHOWN) lines.push(`  ... ${tool.rules.length - RULES_SHOWN} more rules`);
  return lines;
}

function findingLines(finding: Finding): string[] {
  const where = finding.location.file === undefined ? `${printable(finding.tool)} (no schema file found)` : printable(finding.location.file);
  return [
    `  [${finding.severity}] ${printable(finding.tool)} ${printable(finding.rule)} at ${printable(finding.location.argumentPointer || "(the arguments)")}: ${finding.perThousand} per 1000 (healthy < ${finding.threshold.healthy}, defect > ${finding.threshold.defect})`,
    `      ${escapeControls(finding.diagnosis)}`,
    `      change: ${escapeControls(finding.change)}`,
    `      at ${where}#${printable(finding.location.schemaPointer)}`,
  ];
}

export function alarmText(alarm: ChangeAlarm): string {
  return escapeControls(alarm.message);
}
