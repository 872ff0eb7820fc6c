// Every diagnosis of the report, each on a ledger the simulated model wrote through the real
// guard to show it, and none on a ledger that must not show it (issue 29).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type SimulationOptions, type SimulationSummary, simulateTraffic, type ToolName } from "../../bench/simulate/traffic.ts";
import { type Analysis, analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import { schemaFilesIn } from "../../generator/report/schema-files.ts";
import { scanLedger } from "../../templates/runtime/ledger/read.ts";
import { REPO } from "../helpers/temp-project.ts";

const dir = mkdtempSync(path.join(tmpdir(), "toolguard-diagnoses-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** Simulates `options` into a fresh ledger and reads it back as the report does. */
async function reportOf(options: Omit<SimulationOptions, "ledger">): Promise<Analysis> {
  return (await simulated(options)).analysis;
}

async function simulated(options: Omit<SimulationOptions, "ledger">): Promise<{ analysis: Analysis; summary: SimulationSummary }> {
  const ledger = path.join(dir, `ledger-${runs++}.jsonl`);
  const summary = await simulateTraffic({ ledger, ...options });
  return { analysis: await analysisOf(ledger), summary };
}

async function analysisOf(ledger: string): Promise<Analysis> {
  const fold = new ReportFold();
  for await (const entry of scanLedger(ledger)) fold.add(entry);
  return analyse(fold.finish(), schemaFilesIn(path.join(REPO, "schemas"), REPO));
}

const only = (tool: ToolName) => ({ traffic: { create_invoice: 0, schedule_meeting: 0, search_tickets: 0, update_org_chart: 0, [tool]: 1 } });

describe("each diagnosis, on a ledger made to show it", () => {
  const cases: [string, ToolName, string, string, string, RegExp][] = [
    // defect class, tool, rule, kind, schema pointer, change
    ["wrong_enum", "create_invoice", "enum", "alias_or_describe_enum", "/inputSchema/properties/currency", /add "euro" as an alias of "EUR"/],
    ["missing_required", "schedule_meeting", "required", "optional_or_rename", "/function/parameters/properties/send_invites", /make the field optional/],
    ["truncated", "update_org_chart", "truncated", "split_tool", "/description", /split the tool/],
    [
      "unknown_reference",
      "create_invoice",
      "reference_not_found",
      "switch_to_reference",
      "/inputSchema/properties/customer_ref",
      /switch the field to a reference/,
    ],
    ["ambiguous_reference", "create_invoice", "ambiguous_reference", "specific_reference", "/inputSchema/properties/customer_ref", /more specific reference/],
    ["code_fence", "create_invoice", "code_fence", "bare_json", "/description", /bare JSON object/],
    ["trailing_comma", "schedule_meeting", "trailing_comma", "json_syntax", "/function/description", /strict JSON/],
    ["out_of_bounds", "search_tickets", "maximum", "state_bound", "/input_schema/properties/page/properties/size", /state the bound \(maximum\)/],
    ["wrong_format", "schedule_meeting", "format", "state_format", "/function/parameters/properties/starts_at", /example of the format/],
    ["wrong_type", "create_invoice", "type", "state_type", "/inputSchema/properties/amount", /say the type/],
    ["unknown_field", "update_org_chart", "additionalProperties", "name_unknown_field", "/definitions/team", /add "manager" as a field/],
  ];
  it.each(cases)("%s on %s: a %s finding (%s) at its pointer", async (defect, tool, rule, kind, schemaPointer, change) => {
    const analysis = await reportOf({ turns: 600, seed: 7, ...only(tool), mix: { [tool]: { [defect]: 0.1 } } });
    const finding = analysis.findings.find((one) => one.rule === rule);
    expect(finding, JSON.stringify(analysis.findings.map((one) => one.rule))).toBeDefined();
    expect(finding).toMatchObject({ tool, kind, severity: "schema defect", threshold: { healthy: 10, defect: 50 } });
    expect(finding?.location).toMatchObject({ tool, schemaPointer });
    expect(finding?.location.file).toMatch(/^schemas\//);
    expect(finding?.change).toMatch(change);
    expect(finding?.diagnosis).not.toMatch(/schema or its description is unclear/);
    // One defect class makes one finding: the others stay silent.
    expect(analysis.findings.map((one) => one.rule)).toEqual([rule]);
  });

  it("counts ambiguous-reference chains (15 of them, not 0), as the guard writes them", async () => {
    // The guard's ledger lines for chains that ended on an unanswered question (issue 29's 15).
    const question = {
      field: "/customer_ref",
      target: "customer_id",
      candidates: [
        { id: "a", label: "Acme BV" },
        { id: "b", label: "Acme Holding" },
      ],
    };
    const line = (index: number) => ({
      v: 1,
      chain: `chain-${index}`,
      tool: "create_invoice",
      turn: `turn-${index}`,
      startedAt: "2026-11-02T10:00:00.000Z",
      verdict: "ambiguous",
      attempts: [{ raw: "{}", errors: [], coercions: [], question }],
      repairs: 0,
    });
    const ledger = path.join(dir, "fifteen.jsonl");
    writeFileSync(ledger, Array.from({ length: 15 }, (_, index) => `${JSON.stringify(line(index))}\n`).join(""));
    const invoice = (await analysisOf(ledger)).tools[0];
    expect(invoice?.repairs.ambiguous).toBe(15);
    expect(invoice?.ambiguousCalls).toBe(15);
    expect(invoice?.rules).toEqual([
      { rule: "ambiguous_reference", failedCalls: 15, perThousand: 1000, days: [{ start: "2026-11-02T00:00:00.000Z", failedCalls: 15, perThousand: 1000 }] },
    ]);
  });

  it("counts every simulated ambiguous chain the model left unanswered", async () => {
    const { analysis, summary } = await simulated({
      turns: 300,
      seed: 3,
      ...only("create_invoice"),
      mix: { create_invoice: { ambiguous_reference: 0.05 } },
      answers: 0,
    });
    const made = summary.defects.create_invoice?.ambiguous_reference;
    expect(made).toBeGreaterThan(5);
    const invoice = analysis.tools.find((tool) => tool.tool === "create_invoice");
    expect(invoice?.repairs.ambiguous).toBe(made);
    expect(invoice?.ambiguousCalls).toBe(made);
  });

  it("names the values models send instead, most first, and the tools whose arguments truncate", async () => {
    const analysis = await reportOf({ turns: 2000, seed: 5 });
    const currency = analysis.tools.find((tool) => tool.tool === "create_invoice")?.locations.find((line) => line.pointer === "/currency");
    expect(currency?.topValues.map((value) => value.value)).toEqual(['"euro"', '"US$"', '"pounds"']);
    expect(currency?.topValues[0]?.meant).toBe('"EUR"');
    const sum = currency?.topValues.reduce((total, value) => total + value.calls, 0);
    expect(sum).toBe(currency?.failedCalls);
    const chart = analysis.tools.find((tool) => tool.tool === "update_org_chart");
    expect(chart?.truncatedCalls).toBeGreaterThan(0);
    expect(analysis.tools.filter((tool) => tool.truncatedCalls > 0).map((tool) => tool.tool)).toEqual(["update_org_chart"]);
    expect(analysis.tools.find((tool) => tool.tool === "schedule_meeting")?.requiredOmitted).toEqual([
      { pointer: "/send_invites", failedCalls: expect.any(Number) },
    ]);
  });

  it("raises the change alarm when structural failures double from a day on, and not on steady traffic", async () => {
    const base = { turns: 7000, seed: 11, ...only("create_invoice") };
    const steady = await reportOf({ ...base, mix: { create_invoice: { wrong_enum: 0.03 } } });
    expect(steady.alarms).toEqual([]);
    const regressed = await reportOf({
      ...base,
      mix: { create_invoice: { wrong_enum: 0.03 } },
      changes: [{ tool: "create_invoice", fromDay: 4, mix: { wrong_enum: 0.09 } }],
    });
    expect(regressed.alarms).toHaveLength(1);
    expect(regressed.alarms[0]).toMatchObject({ tool: "create_invoice", since: "2026-11-06" });
    expect(regressed.alarms[0]?.message).toMatch(/^structural failures on create_invoice (doubled|rose [\d.]+x) since 2026-11-06/);
  });

  it("finds nothing on clean traffic: every tool healthy, no finding, no alarm", async () => {
    const analysis = await reportOf({ turns: 1500, seed: 2, mix: {} });
    expect(analysis.tools.map((tool) => tool.health)).toEqual(["healthy", "healthy", "healthy", "healthy"]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.alarms).toEqual([]);
    expect(analysis.failedCalls).toBe(0);
  });

  it("counts per hour, day and week windows that add up to the whole", async () => {
    const analysis = await reportOf({ turns: 1000, seed: 4 });
    for (const tool of analysis.tools)
      for (const name of ["hour", "day", "week"] as const) expect(tool.windows[name].reduce((sum, point) => sum + point.calls, 0)).toBe(tool.calls);
    const invoice = analysis.tools[0];
    expect(invoice?.windows.day).toHaveLength(7);
    expect(invoice?.windows.week.map((point) => point.start)).toEqual(["2026-11-02T00:00:00.000Z"]);
    expect(invoice?.windows.hour.length).toBeGreaterThan(24);
    for (const tool of analysis.tools) for (const rule of tool.rules) expect(rule.days.reduce((sum, day) => sum + day.failedCalls, 0)).toBe(rule.failedCalls);
  });

  it("stays bounded on a hostile ledger: 10,000 tools, 200 rules, 16 failure classes, the rest counted together", () => {
    const fold = new ReportFold();
    const line = (tool: string, rule: string, failure: string, index: number) => ({
      v: 1,
      chain: `c${index}`,
      tool,
      turn: "t",
      startedAt: "2026-11-02T00:00:00.000Z",
      verdict: "rejected",
      attempts: [{ raw: "{}", failure, errors: [{ path: "/a", rule, message: "m" }], coercions: [] }],
      repairs: 0,
    });
    for (let index = 0; index < 12_000; index++) fold.add(line(`tool-${index}`, "type", "structural", index));
    for (let index = 0; index < 300; index++) fold.add(line("tool-0", `rule-${index}`, `class-${index}`, 20_000 + index));
    const analysis = analyse(fold.finish());
    expect(analysis.tools).toHaveLength(10_001);
    expect(analysis.tools.find((tool) => tool.tool === "(other tools)")?.calls).toBe(2_000);
    const first = analysis.tools.find((tool) => tool.tool === "tool-0");
    expect(first?.rules).toHaveLength(201);
    expect(first?.rules.find((rule) => rule.rule === "(other rules)")?.failedCalls).toBe(101);
    expect(Object.keys(first?.failureClasses ?? {})).toHaveLength(17);
    expect(first?.calls).toBe(301);
  });
});
