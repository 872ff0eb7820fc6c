// `toolguard report`: the ledger read as product telemetry about the tools. Failed calls per
// thousand, per tool and rule, and what each pattern says about the schema. A rising rate is a
// schema defect to fix, not a complaint about the model.
import { ReportTally, type ToolCounts } from "./report-stream.ts";

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
export function buildReport(entries: Iterable<unknown>, tally: ReportTally = new ReportTally()): ToolReport[] {
  for (const entry of entries) tally.add(entry);
  return reportsOf(tally);
}

/**
 * The report of a ledger read as a stream, folded entry by entry into bounded counts
 * (report-stream.ts). Entries whose fields have the wrong type are skipped and counted in
 * `tally.malformed`.
 */
export async function buildReportFrom(entries: AsyncIterable<unknown>, tally: ReportTally = new ReportTally()): Promise<ToolReport[]> {
  for await (const entry of entries) tally.add(entry);
  return reportsOf(tally);
}

function reportsOf(tally: ReportTally): ToolReport[] {
  return [...tally.tools.keys()].sort().map((tool) => {
    const counts = tally.tools.get(tool) as ToolCounts;
    const { calls, failedCalls } = counts;
    const rate = calls === 0 ? 0 : failedCalls / calls;
    return {
      tool,
      calls,
      failedCalls,
      perThousand: perThousand(failedCalls, calls),
      health: rate < HEALTHY ? "healthy" : rate > DEFECT ? "schema defect" : "watch",
      repairSucceeded: counts.repaired,
      repairExhausted: counts.rejected,
      rules: [...counts.rules.entries()]
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

function perThousand(count: number, calls: number): number {
  return calls === 0 ? 0 : Math.round((count / calls) * 10000) / 10;
}

export function formatReport(reports: readonly ToolReport[]): string {
  if (reports.length === 0) return "The ledger is empty: no tool calls recorded yet.\n";
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(
      `${printable(report.tool)}: ${report.calls} call${report.calls === 1 ? "" : "s"}, ${report.failedCalls} failed (${report.perThousand} per 1000) — ${report.health}; repairs succeeded ${report.repairSucceeded}, exhausted ${report.repairExhausted}`,
    );
    for (const rule of report.rules) lines.push(`  ${printable(rule.rule)}: ${rule.perThousand} per 1000 — ${rule.meaning}`);
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
export async function* withinWindow<Entry>(entries: AsyncIterable<Entry>, since: number, scan: WindowScan): AsyncGenerator<Entry> {
  for await (const entry of entries) {
    // A ledger is anyone's to write: an entry without a readable start time is outside any window.
    const startedAt = (entry as { startedAt?: unknown } | null)?.startedAt;
    const started = typeof startedAt === "string" ? Date.parse(startedAt) : Number.NaN;
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

/**
 * A name from the ledger as the terminal may show it: anyone who can call a tool writes the
 * ledger, so escape sequences, control characters, line separators and bidirectional overrides
 * are written as `\u{...}`, never sent raw, and the name is cut to 120 characters.
 */
export function printable(text: string): string {
  const shown = escapeControls(text);
  return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown;
}

/** `printable` without the cut: for sentences that quote ledger values already cut to length. */
export function escapeControls(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
  );
}
