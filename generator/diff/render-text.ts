// The diff for a terminal: one line per changed tool, its changes indented below it.
import { classLabel, type Impact, messageBesidePath } from "./change.ts";
import { type DiffReport, describeBump } from "./diff-report.ts";

const SHORT: Readonly<Record<Impact, string>> = { breaking: "breaking", possibly: "possibly", none: "-" };

/** The report for a terminal, plain text. */
export function renderText(report: DiffReport): string {
  const lines = [`toolguard diff: ${report.base} -> ${report.head}`, `overall: ${classLabel(report.toolTeams, report.models)}`];
  for (const set of report.sets) {
    lines.push(
      "",
      `${set.schemas}: ${set.tools.length} tool${set.tools.length === 1 ? "" : "s"} changed, ${set.unchanged} unchanged; package version bump: ${describeBump(set)}`,
    );
    for (const tool of set.tools) {
      const replay = set.ledger?.[tool.name];
      const ledger = replay?.error
        ? `  [ledger not replayed: ${replay.error}]`
        : replay && replay.checked > 0
          ? `  [${replay.failing}/${replay.checked} recent calls would fail]`
          : "";
      const renamed = tool.previousName ? ` (was ${tool.previousName})` : "";
      lines.push(`  ${tool.name}${renamed}: ${tool.status}, ${classLabel(tool.toolTeams, tool.models)}${ledger}`);
      for (const change of tool.changes) {
        lines.push(`    ${change.path || "/"}  [tool teams ${SHORT[change.toolTeams]}, models ${SHORT[change.models]}]  ${messageBesidePath(change)}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
