// The dashboard and alert rules toolguard ships (docs/observability/) load in Prometheus's own
// checker, the alerts fire on the brief's bands and only there, and every query names metrics
// and labels toolguard really records. promtool comes from Debian's `prometheus` package, which
// .ci/run installs; without it these tests are skipped, and say so.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Meter, MeterProvider } from "@opentelemetry/api";
import { metrics } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { meterInstruments, TOOL_NAME } from "../../templates/runtime/telemetry/telemetry.ts";
import { REPO } from "../helpers/temp-project.ts";

const RULES = path.join(REPO, "docs/observability/prometheus-rules.yml");
const DASHBOARD = path.join(REPO, "docs/observability/grafana-dashboard.json");
const promtool = spawnSync("promtool", ["--version"], { encoding: "utf8" });
const hasPromtool = promtool.status === 0;
if (!hasPromtool) {
  console.warn(
    "SKIPPED: test/observability: promtool is not installed (apt-get install prometheus; .ci/run does), so the rules and dashboard queries were not checked",
  );
}

const work = mkdtempSync(path.join(tmpdir(), "toolguard-observability-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runPromtool(...args: string[]) {
  const result = spawnSync("promtool", args, { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface Rule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly annotations?: Record<string, string>;
}
const rules = (parse(readFileSync(RULES, "utf8")) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);

/** Prometheus names of what toolguard records, as the OpenTelemetry Prometheus exporters name them. */
function recordedSeries(): Set<string> {
  const names = new Set<string>();
  const meter = {
    createCounter: (name: string) => {
      names.add(`${name.replaceAll(".", "_")}_total`);
      return { add() {} };
    },
    createHistogram: (name: string, options?: { unit?: string }) => {
      const base = `${name.replaceAll(".", "_")}${options?.unit === "s" ? "_seconds" : ""}`;
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(base + suffix);
      return { record() {} };
    },
  } as unknown as Meter;
  metrics.setGlobalMeterProvider({ getMeter: () => meter } as MeterProvider);
  try {
    meterInstruments();
  } finally {
    metrics.disable();
  }
  return names;
}

/** Metric names a PromQL expression reads: identifiers directly before a selector or a range that look like toolguard's. */
const seriesIn = (expr: string): string[] => [...expr.matchAll(/\b(toolguard_[a-z_]+)(?=\s*[{[])/g)].map((match) => match[1] as string);
const LABELS = new Set(
  [TOOL_NAME, "toolguard.rule", "toolguard.failure", "toolguard.outcome", "error.type"].map((name) => name.replaceAll(".", "_")).concat(["le"]),
);
const labelsIn = (expr: string): string[] => [
  ...[...expr.matchAll(/\b(?:by|on)\s*\(([^)]*)\)/g)].flatMap((match) => (match[1] as string).split(",").map((label) => label.trim())),
  ...[...expr.matchAll(/([a-z_]+)\s*=~?\s*"/g)].map((match) => match[1] as string),
];

describe.skipIf(!hasPromtool)("prometheus-rules.yml", () => {
  it("passes promtool check rules", () => {
    const result = runPromtool("check", "rules", RULES);
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("reads only series and labels toolguard records", () => {
    const recorded = recordedSeries();
    for (const rule of rules) {
      for (const series of seriesIn(rule.expr)) expect(recorded, `${rule.alert ?? rule.record}: ${series}`).toContain(series);
      for (const label of labelsIn(rule.expr)) expect(LABELS, `${rule.alert ?? rule.record}: ${label}`).toContain(label);
    }
  });

  it("fires on the brief's bands: watch between 1 and 5 in 100, defect over 5, nothing under 1 or on little traffic", () => {
    const annotation = (alert: string, name: string) => rules.find((rule) => rule.alert === alert)?.annotations?.[name] ?? "";
    // 100 calls a minute per tool for almost seven hours, failing at the given share.
    const tools: Record<string, number> = { healthy: 0.5, watched: 2, broken: 6 };
    const input_series = Object.entries(tools).flatMap(([tool, failedPerMinute]) => [
      { series: `toolguard_calls_total{gen_ai_tool_name="${tool}"}`, values: "0+100x400" },
      { series: `toolguard_validation_failed_total{gen_ai_tool_name="${tool}"}`, values: `0+${failedPerMinute}x400` },
    ]);
    // A tool with 1 call in 20 minutes, and that call failed: too little traffic to page anyone.
    input_series.push({ series: 'toolguard_calls_total{gen_ai_tool_name="quiet"}', values: "0+0.05x400" });
    input_series.push({ series: 'toolguard_validation_failed_total{gen_ai_tool_name="quiet"}', values: "0+0.05x400" });
    const expected = (alert: string, tool: string, severity: string, perThousand: string) => ({
      exp_labels: { severity, gen_ai_tool_name: tool },
      exp_annotations: {
        summary: annotation(alert, "summary").replace("{{ $labels.gen_ai_tool_name }}", tool).replace('{{ $value | printf "%.1f" }}', perThousand),
        description: annotation(alert, "description"),
      },
    });
    const tests = {
      rule_files: [RULES],
      evaluation_interval: "1m",
      tests: [
        {
          interval: "1m",
          input_series,
          alert_rule_test: [
            { eval_time: "5h", alertname: "ToolguardSchemaDefect", exp_alerts: [expected("ToolguardSchemaDefect", "broken", "warning", "60.0")] },
            { eval_time: "5h", alertname: "ToolguardSchemaWatch", exp_alerts: [expected("ToolguardSchemaWatch", "watched", "info", "20.0")] },
            // Not yet: the watch alert waits two hours of the rule holding.
            { eval_time: "2h", alertname: "ToolguardSchemaWatch", exp_alerts: [] },
          ],
        },
      ],
    };
    const file = path.join(work, "rules.test.yml");
    writeFileSync(file, stringify(tests));
    const result = runPromtool("test", "rules", file);
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });
});

describe.skipIf(!hasPromtool)("grafana-dashboard.json", () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
    uid: string;
    panels: { id: number; title: string; type: string; targets: { expr: string; refId: string }[]; gridPos: { x: number; y: number; w: number; h: number } }[];
    templating: { list: { name: string }[] };
  };

  it("is a dashboard Grafana imports: a uid, unique panel ids, panels inside the 24-column grid, the variables its queries use", () => {
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const variables = new Set(dashboard.templating.list.map((variable) => variable.name));
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        for (const [, name] of target.expr.matchAll(/\$([a-z]\w*)/g)) expect(variables, `${panel.title}: $${name}`).toContain(name);
      }
    }
  });

  it("every panel query is valid PromQL over series and labels toolguard records", () => {
    const recorded = recordedSeries();
    // Grafana's variables as Grafana would expand them, then each query as a recording rule:
    // promtool parses every expression of a rule file.
    const expand = (expr: string) => expr.replaceAll("$__rate_interval", "5m").replaceAll("$__range", "1h").replaceAll("$tool", ".*");
    const queries = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, expr: expand(target.expr) })));
    for (const query of queries) {
      for (const series of seriesIn(query.expr)) expect(recorded, `${query.panel}: ${series}`).toContain(series);
      for (const label of labelsIn(query.expr)) expect(LABELS, `${query.panel}: ${label}`).toContain(label);
    }
    const file = path.join(work, "dashboard-queries.yml");
    writeFileSync(
      file,
      stringify({ groups: [{ name: "dashboard", rules: queries.map((query, index) => ({ record: `dashboard:query_${index}`, expr: query.expr })) }] }),
    );
    const result = runPromtool("check", "rules", file);
    expect(result.output).toContain(`SUCCESS: ${queries.length} rules found`);
  });
});
