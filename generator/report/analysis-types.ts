// The shapes of the report as data (analysis.ts computes them): what the JSON output is, and
// what the terminal, markdown and HTML outputs read.
import type { Finding, OffendingValue } from "./diagnose.ts";
import type { ToolSchemaFile } from "./schema-files.ts";

export type Health = "healthy" | "watch" | "schema defect";
export type WindowName = "hour" | "day" | "week";

/** One time window of one tool. */
export interface WindowPoint {
  /** ISO 8601 start of the window (UTC; weeks start on Monday). */
  readonly start: string;
  readonly calls: number;
  readonly failedCalls: number;
  readonly perThousand: number;
}

export interface RuleLine {
  readonly rule: string;
  readonly failedCalls: number;
  readonly perThousand: number;
  /** Per day (UTC): the rule's failed calls per 1000 of the tool's calls that day. */
  readonly days: readonly { readonly start: string; readonly failedCalls: number; readonly perThousand: number }[];
}

export interface LocationLine {
  readonly rule: string;
  readonly pointer: string;
  readonly failedCalls: number;
  readonly perThousand: number;
  readonly topValues: readonly OffendingValue[];
}

export interface RepairOutcomes {
  /** Chains that passed on the first attempt. */
  readonly firstTime: number;
  readonly repaired: number;
  /** Refused: the repair budget ran out (verdict `rejected`). */
  readonly exhausted: number;
  /** Ended on an unanswered question. */
  readonly ambiguous: number;
  /** The model never came back. */
  readonly abandoned: number;
  /** Still waiting when the ledger ends. */
  readonly open: number;
  /** Implementation errors, replays, conflicts, fail-closed refusals. */
  readonly other: number;
  /** repaired / (repaired + exhausted + abandoned + ambiguous); undefined with no chain to repair. */
  readonly successRate: number | undefined;
}

/** "structural failures on create_invoice doubled since <date>". */
export interface ChangeAlarm {
  readonly tool: string;
  readonly failure: "structural";
  /** The day (UTC) the rate rose, ISO 8601 date. */
  readonly since: string;
  readonly beforePerThousand: number;
  readonly afterPerThousand: number;
  /** afterPerThousand / beforePerThousand (Infinity is written as null in JSON). */
  readonly factor: number | null;
  readonly message: string;
}

export interface ToolAnalysis {
  readonly tool: string;
  readonly calls: number;
  readonly failedCalls: number;
  readonly perThousand: number;
  readonly health: Health;
  readonly repairs: RepairOutcomes;
  readonly ambiguousCalls: number;
  readonly truncatedCalls: number;
  readonly referenceFailures: number;
  readonly requiredOmitted: readonly { readonly pointer: string; readonly failedCalls: number }[];
  readonly failureClasses: Readonly<Record<string, number>>;
  readonly rules: readonly RuleLine[];
  readonly locations: readonly LocationLine[];
  readonly windows: Readonly<Record<WindowName, readonly WindowPoint[]>>;
  readonly findings: readonly Finding[];
}

export interface Analysis {
  readonly thresholds: { readonly healthyPerThousand: number; readonly defectPerThousand: number };
  /** Earliest and latest chain start in the ledger read. */
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly calls: number;
  readonly failedCalls: number;
  readonly tools: readonly ToolAnalysis[];
  /** Every tool's findings, worst first. */
  readonly findings: readonly Finding[];
  readonly alarms: readonly ChangeAlarm[];
  /**
   * Schema advice made before any traffic (generate's, from the schema alone); empty until a
   * source of it is passed to `analyse`.
   */
  readonly advice: readonly ReportAdvice[];
}

/**
 * One piece of pre-traffic schema advice as the report shows it: the fields of `generate`'s
 * `Advice` (generator/advice/) that the outputs print, so its `schemaAdvice(...)` result can be
 * passed to `analyse` as it is.
 */
export interface ReportAdvice {
  readonly tool: string;
  readonly kind: string;
  /** The tool's file, relative to its schema folder. */
  readonly file: string;
  /** JSON Pointer into the tool's input schema. */
  readonly pointer: string;
  readonly finding: string;
  readonly change: string;
}

/** Where the tools' schema files are (schema-files.ts). */
export type SchemaFiles = ReadonlyMap<string, ToolSchemaFile>;
