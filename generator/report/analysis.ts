// The report as data: what every output (terminal, JSON, markdown, HTML) prints, computed once
// from a folded ledger (fold.ts). Rates are failed calls per 1000 model calls; a call is one
// attempt of a chain.
import { DEFECT_RATE, diagnose, type Finding, HEALTHY_RATE, schemaPointerOf, type Severity } from "./diagnose.ts";
import type { ReportFold, ToolFold } from "./fold.ts";
import type { WindowPoint, RuleLine, LocationLine, ChangeAlarm, ToolAnalysis, Analysis, ReportAdvice, SchemaFiles } from "./analysis-types.ts";

export type {
  Health,
  WindowName,
  WindowPoint,
  RuleLine,
  LocationLine,
  RepairOutcomes,
  ChangeAlarm,
  ToolAnalysis,
  Analysis,
  ReportAdvice,
  SchemaFiles,
} from "./analysis-types.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TOP_VALUES = 10;
/** Least failed calls after a change for an alarm: a handful of failures is noise. */
const ALARM_MIN_FAILED = 20;
/** Least calls before a change for an alarm: the rate it doubles must be a rate. */
const ALARM_MIN_CALLS_BEFORE = 200;

export function analyse(fold: ReportFold, schemaFiles: SchemaFiles = new Map(), advice: readonly ReportAdvice[] = []): Analysis {
  const tools = [...fold.tools.keys()].sort().map((name) => toolAnalysis(name, fold.tools.get(name) as ToolFold, schemaFiles));
  const findings = tools
    .flatMap((tool) => tool.findings)
    .sort((a, b) => b.perThousand - a.perThousand || order(a.tool, b.tool) || order(a.location.argumentPointer, b.location.argumentPointer));
  const alarms = tools.flatMap((tool) => {
    const alarm = changeAlarm(tool.tool, fold.tools.get(tool.tool) as ToolFold);
    return alarm ? [alarm] : [];
  });
  const calls = tools.reduce((sum, tool) => sum + tool.calls, 0);
  const failedCalls = tools.reduce((sum, tool) => sum + tool.failedCalls, 0);
  return {
    thresholds: { healthyPerThousand: HEALTHY_RATE * 1000, defectPerThousand: DEFECT_RATE * 1000 },
    from: fold.first === undefined ? undefined : new Date(fold.first).toISOString(),
    to: fold.last === undefined ? undefined : new Date(fold.last).toISOString(),
    calls,
    failedCalls,
    tools,
    findings,
    alarms,
    advice,
  };
}

function toolAnalysis(name: string, tool: ToolFold, schemaFiles: SchemaFiles): ToolAnalysis {
  const { calls } = tool;
  const locations: LocationLine[] = [...tool.locations.values()]
    .map((location) => ({
      rule: location.rule,
      pointer: location.pointer,
      failedCalls: location.failedCalls,
      perThousand: perThousand(location.failedCalls, calls),
      topValues: [...location.values.entries()]
        .sort(([a, x], [b, y]) => y - x || order(a, b))
        .slice(0, TOP_VALUES)
        .map(([value, count]) => {
          const meant = location.meant.get(value);
          return meant === undefined ? { value, calls: count } : { value, calls: count, meant };
        }),
    }))
    .sort((a, b) => b.failedCalls - a.failedCalls || order(a.rule, b.rule) || order(a.pointer, b.pointer));
  const findings: Finding[] = [];
  for (const line of locations) {
    const rate = calls === 0 ? 0 : line.failedCalls / calls;
    if (rate < HEALTHY_RATE) continue;
    const file = schemaFiles.get(name);
    findings.push({
      tool: name,
      rule: line.rule,
      ...diagnose(line, line.topValues, tool.longestRaw),
      severity: (rate > DEFECT_RATE ? "schema defect" : "watch") satisfies Severity,
      failedCalls: line.failedCalls,
      perThousand: line.perThousand,
      threshold: { healthy: HEALTHY_RATE * 1000, defect: DEFECT_RATE * 1000 },
      location: {
        tool: name,
        ...(file === undefined ? {} : { file: file.file }),
        argumentPointer: line.pointer,
        schemaPointer: schemaPointerOf(line.rule, line.pointer, file),
      },
      topValues: line.topValues,
    });
  }
  const rate = calls === 0 ? 0 : tool.failedCalls / calls;
  const verdict = (name: string): number => tool.verdicts.get(name) ?? 0;
  const repaired = verdict("repaired");
  const exhausted = verdict("rejected");
  const ambiguous = verdict("ambiguous");
  const abandoned = verdict("abandoned");
  const needed = repaired + exhausted + ambiguous + abandoned;
  const known = verdict("ok") + repaired + exhausted + ambiguous + abandoned + verdict("open");
  const total = [...tool.verdicts.values()].reduce((sum, count) => sum + count, 0);
  return {
    tool: name,
    calls,
    failedCalls: tool.failedCalls,
    perThousand: perThousand(tool.failedCalls, calls),
    health: rate < HEALTHY_RATE ? "healthy" : rate > DEFECT_RATE ? "schema defect" : "watch",
    repairs: {
      firstTime: verdict("ok"),
      repaired,
      exhausted,
      ambiguous,
      abandoned,
      open: verdict("open"),
      other: total - known,
      successRate: needed === 0 ? undefined : Math.round((repaired / needed) * 1000) / 1000,
    },
    ambiguousCalls: tool.ambiguousCalls,
    truncatedCalls: tool.truncatedCalls,
    referenceFailures: (tool.rules.get("reference_not_found") ?? 0) + (tool.rules.get("reference_not_offered") ?? 0),
    requiredOmitted: locations.filter((line) => line.rule === "required").map((line) => ({ pointer: line.pointer, failedCalls: line.failedCalls })),
    failureClasses: Object.fromEntries([...tool.classes.entries()].sort(([a], [b]) => order(a, b))),
    rules: [...tool.rules.entries()]
      .sort(([a, x], [b, y]) => y - x || order(a, b))
      .map(([rule, count]) => ({ rule, failedCalls: count, perThousand: perThousand(count, calls), days: ruleDays(tool, rule) })),
    locations,
    windows: { hour: series(tool, HOUR, 0), day: series(tool, DAY, 0), week: series(tool, 7 * DAY, 4 * DAY) },
    findings,
  };
}

/** The rule's failed calls per day, against the tool's calls that day. */
function ruleDays(tool: ToolFold, rule: string): RuleLine["days"] {
  const callsOn = new Map<number, number>();
  for (const [hour, counts] of tool.hours) {
    const day = Math.floor((hour * HOUR) / DAY);
    callsOn.set(day, (callsOn.get(day) ?? 0) + counts.calls);
  }
  return [...(tool.ruleDays.get(rule) ?? new Map<number, number>()).entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, count]) => ({ start: new Date(day * DAY).toISOString(), failedCalls: count, perThousand: perThousand(count, callsOn.get(day) ?? 0) }));
}

/** The tool's hours summed into windows of `size` ms; `offset` aligns weeks to Monday (1970-01-01 was a Thursday). */
function series(tool: ToolFold, size: number, offset: number): WindowPoint[] {
  const windows = new Map<number, { calls: number; failed: number }>();
  for (const [hour, counts] of tool.hours) {
    const start = Math.floor((hour * HOUR - offset) / size) * size + offset;
    const window = windows.get(start) ?? { calls: 0, failed: 0 };
    window.calls += counts.calls;
    window.failed += counts.failed;
    windows.set(start, window);
  }
  return [...windows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, counts]) => ({
      start: new Date(start).toISOString(),
      calls: counts.calls,
      failedCalls: counts.failed,
      perThousand: perThousand(counts.failed, counts.calls),
    }));
}

/**
 * Structural failures per 1000 calls, before and after each day: the day after which the rate
 * is highest relative to before, when it at least doubled with enough calls on both sides.
 */
function changeAlarm(name: string, tool: ToolFold): ChangeAlarm | undefined {
  const days = new Map<number, { calls: number; structural: number }>();
  for (const [hour, counts] of tool.hours) {
    const day = Math.floor((hour * HOUR) / DAY);
    const sum = days.get(day) ?? { calls: 0, structural: 0 };
    sum.calls += counts.calls;
    sum.structural += counts.structural;
    days.set(day, sum);
  }
  const ordered = [...days.entries()].sort(([a], [b]) => a - b);
  const total = ordered.reduce((sum, [, day]) => ({ calls: sum.calls + day.calls, structural: sum.structural + day.structural }), { calls: 0, structural: 0 });
  let before = { calls: 0, structural: 0 };
  let best: { day: number; before: number; after: number; factor: number } | undefined;
  for (const [day, counts] of ordered) {
    const after = { calls: total.calls - before.calls, structural: total.structural - before.structural };
    if (before.calls >= ALARM_MIN_CALLS_BEFORE && after.structural >= ALARM_MIN_FAILED) {
      const rateBefore = before.structural / before.calls;
      const rateAfter = after.structural / after.calls;
      const factor = rateBefore === 0 ? Number.POSITIVE_INFINITY : rateAfter / rateBefore;
      if (factor >= 2 && rateAfter >= HEALTHY_RATE && (best === undefined || factor > best.factor))
        best = { day, before: rateBefore * 1000, after: rateAfter * 1000, factor };
    }
    before = { calls: before.calls + counts.calls, structural: before.structural + counts.structural };
  }
  if (best === undefined) return undefined;
  const since = new Date(best.day * DAY).toISOString().slice(0, 10);
  const beforePerThousand = Math.round(best.before * 10) / 10;
  const afterPerThousand = Math.round(best.after * 10) / 10;
  const how = Number.isFinite(best.factor) ? (best.factor >= 3 ? `rose ${best.factor.toFixed(1)}x` : "doubled") : "appeared";
  return {
    tool: name,
    failure: "structural",
    since,
    beforePerThousand,
    afterPerThousand,
    factor: Number.isFinite(best.factor) ? Math.round(best.factor * 10) / 10 : null,
    message: `structural failures on ${name} ${how} since ${since}: ${beforePerThousand} -> ${afterPerThousand} per 1000 calls`,
  };
}

export function perThousand(count: number, calls: number): number {
  return calls === 0 ? 0 : Math.round((count / calls) * 10000) / 10;
}

function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
