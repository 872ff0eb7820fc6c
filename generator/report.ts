// `toolguard report`: the ledger read as product telemetry about the tools. Failed calls per
// thousand, per tool and rule, and what each pattern says about the schema. A rising rate is a
// schema defect to fix, not a complaint about the model.
import { latestPerChain, type LedgerEntry } from "../templates/runtime/ledger/ledger.ts";

/** Below this share of failed calls a tool is healthy; above `DEFECT` its schema needs work. */
export const HEALTHY = 0.01;
export const DEFECT = 0.05;

export interface RuleCount {
  readonly rule: string;
  readonly failedCalls: number;
  readonly perThousand: number;
  readonly meaning: string;
}

export interface ToolReport {
  readonly tool: string;
  /** Model tool calls seen: every attempt of every chain. */
  readonly calls: number;
  readonly failedCalls: number;
  readonly perThousand: number;
  readonly health: "healthy" | "watch" | "schema defect";
  readonly repairSucceeded: number;
  readonly repairExhausted: number;
  readonly rules: readonly RuleCount[];
}

/** What a failure of each rule usually says about the schema, in the brief's terms. */
const MEANINGS: Readonly<Record<string, string>> = {
  enum: "wrong enum member: the description does not make the allowed set legible, or the values are unintuitive and want aliases",
  const: "wrong constant: state the expected value in the description",
  required: "missing required field: should it be required at all, and is its name clear?",
  truncated: "truncation: the argument surface is too large for the model's output budget; split the tool",
  reference_not_found: "referential: the tool asks for something the model cannot know; switch the field to a reference it can name",
  reference_not_offered: "referential: the model invents identifiers; keep it choosing from offered candidates",
  ambiguous_reference: "ambiguous references: names collide; ask for a more specific reference (an email rather than a name)",
  additionalProperties: "unknown keys: the model invents fields; name the fields it reaches for, or describe the object better",
  type: "wrong types: say the type and give an example in the description",
  format: "wrong format: give an example of the format in the description",
  pattern: "pattern mismatch: give an example that matches in the description",
};
const GENERIC_MEANING = "read the failing messages in the ledger: the schema or its description is unclear here";
const SEMANTIC = new Set(["reference_not_found", "reference_not_offered", "ambiguous_reference"]);

/** Reads every chain once, in its latest state (a chain is rewritten while it waits for a repair). */
export function buildReport(entries: readonly LedgerEntry[]): ToolReport[] {
  const byTool = new Map<string, LedgerEntry[]>();
  for (const entry of latestPerChain(entries)) {
    const list = byTool.get(entry.tool) ?? [];
    list.push(entry);
    byTool.set(entry.tool, list);
  }
  return [...byTool.keys()].sort().map((tool) => {
    const chains = byTool.get(tool) ?? [];
    let calls = 0;
    let failedCalls = 0;
    const rules = new Map<string, number>();
    for (const chain of chains) {
      for (const attempt of chain.attempts) {
        calls++;
        if (!attempt.failure) continue;
        failedCalls++;
        // A call counts once per rule it broke, however many fields broke it.
        for (const rule of new Set(attempt.errors.map((error) => error.rule))) {
          if (rule === "more_errors" || rule === "repair_budget") continue;
          rules.set(rule, (rules.get(rule) ?? 0) + 1);
        }
      }
    }
    const rate = calls === 0 ? 0 : failedCalls / calls;
    return {
      tool,
      calls,
      failedCalls,
      perThousand: perThousand(failedCalls, calls),
      health: rate < HEALTHY ? "healthy" : rate > DEFECT ? "schema defect" : "watch",
      repairSucceeded: chains.filter((chain) => chain.verdict === "repaired").length,
      repairExhausted: chains.filter((chain) => chain.verdict === "rejected").length,
      rules: [...rules.entries()]
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
        .map(([rule, count]) => ({
          rule,
          failedCalls: count,
          perThousand: perThousand(count, calls),
          meaning: MEANINGS[rule] ?? (SEMANTIC.has(rule) ? MEANINGS.reference_not_found! : GENERIC_MEANING),
        })),
    };
  });
}

/**
 * The report of a ledger read as a stream: each chain is kept only in its latest state, reduced
 * to what the report counts (tool, verdict, each attempt's failure and rules), so a ledger of
 * any size is reported in memory proportional to its number of chains, not its bytes.
 */
export async function buildReportFrom(entries: AsyncIterable<LedgerEntry>): Promise<ToolReport[]> {
  const latest = new Map<string, LedgerEntry>();
  for await (const entry of entries) {
    latest.set(entry.chain, {
      v: 1,
      chain: entry.chain,
      tool: entry.tool,
      turn: "",
      startedAt: "",
      verdict: entry.verdict,
      repairs: entry.repairs,
      attempts: (entry.attempts ?? []).map((attempt) => ({
        raw: "",
        failure: attempt.failure,
        errors: (attempt.errors ?? []).map((error) => ({ path: "", rule: error.rule, message: "" })),
        coercions: [],
        guardMs: 0,
      })),
    });
  }
  return buildReport([...latest.values()]);
}

function perThousand(count: number, calls: number): number {
  return calls === 0 ? 0 : Math.round((count / calls) * 10000) / 10;
}

export function formatReport(reports: readonly ToolReport[]): string {
  if (reports.length === 0) return "The ledger is empty: no tool calls recorded yet.\n";
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(
      `${report.tool}: ${report.calls} call${report.calls === 1 ? "" : "s"}, ${report.failedCalls} failed (${report.perThousand} per 1000) — ${report.health}; repairs succeeded ${report.repairSucceeded}, exhausted ${report.repairExhausted}`,
    );
    for (const rule of report.rules) lines.push(`  ${rule.rule}: ${rule.perThousand} per 1000 — ${rule.meaning}`);
  }
  lines.push("", `Healthy is under ${HEALTHY * 1000} failed calls per 1000; over ${DEFECT * 1000} per 1000, fix the schema.`);
  return `${lines.join("\n")}\n`;
}

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `--since` text (`90m`, `24h`, `7d`) as milliseconds; undefined when it is none of those. */
export function parseWindow(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([mhd])$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  return match && amount > 0 ? amount * (UNITS[match[2] as string] as number) : undefined;
}

/** What a windowed read saw: the oldest chain start in the ledger, whether in the window or not. */
export interface WindowScan {
  oldest: number | undefined;
}

/** The entries whose chain started at or after `since` (ms since the epoch); `scan.oldest` is noted on the way. */
export async function* withinWindow(entries: AsyncIterable<LedgerEntry>, since: number, scan: WindowScan): AsyncGenerator<LedgerEntry> {
  for await (const entry of entries) {
    const started = Date.parse(entry.startedAt);
    if (Number.isFinite(started) && (scan.oldest === undefined || started < scan.oldest)) scan.oldest = started;
    if (started >= since) yield entry;
  }
}

/**
 * What the report must say when its window is shorter than asked: the ledger's oldest entry is
 * younger than the window's start (retention rotated older ones away, or they were never
 * written). Undefined when the ledger reaches back far enough.
 */
export function windowShortfall(since: number, now: number, oldest: number | undefined): string | undefined {
  const asked = duration(now - since);
  if (oldest === undefined) return `the ledger holds no entry with a start time: the report covers none of the ${asked} asked`;
  if (oldest <= since) return undefined;
  return `the ledger reaches back only to ${new Date(oldest).toISOString()}, ${duration(now - oldest)} of the ${asked} asked: older entries were rotated away (see stats().rotatedAway and toolguard.ledger.lost) or never written`;
}

function duration(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${(hours / 24).toFixed(1)} days` : hours >= 1 ? `${hours.toFixed(1)} hours` : `${Math.max(0, Math.round(ms / 60_000))} minutes`;
}
