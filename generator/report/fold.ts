// The report's analysis, folded one ledger entry at a time: per tool, per rule, per argument
// location, per hour, with the values models sent at each location. Memory is bounded by the
// caps below, not by the ledger: a chain's `open` entries wait (at most OPEN_WINDOW of them)
// for the entry that supersedes them, and only a chain's last entry is counted.
import { MAX_RULES, MAX_TOOLS, OTHER_RULES, OTHER_TOOLS, reportEntry } from "../report-stream.ts";
import { lastToken, MAX_VALUE_CHARS, parseRaw, valueText, wildcard } from "./fold-values.ts";

export { wildcard } from "./fold-values.ts";

/** Open chains waiting for the entry that supersedes them; past it, the oldest is counted as it stands. */
export const OPEN_WINDOW = 65_536;
/** Locations (rule and pointer) kept per tool; past it, the rest are counted under `OTHER_LOCATION`. */
export const MAX_LOCATIONS = 500;
/** Distinct offending values kept per location; past it, the rest are counted under `OTHER_VALUE`. */
export const MAX_VALUES = 100;
export const OTHER_LOCATION = "(other locations)";
export const OTHER_VALUE = "(other values)";
/** Failure classes kept per tool (the runtime writes three); past it, `OTHER_CLASS`. */
const MAX_CLASSES = 16;
export const OTHER_CLASS = "(other classes)";
/** The enum explanation's suggestion (explain/rules/enum.ts): `... — did you mean "EUR"?`. */
const DID_YOU_MEAN = /did you mean (\S.*)\?$/;

/** Rules whose failures carry a value worth counting: what the model sent instead. */
const VALUE_RULES: ReadonlySet<string> = new Set([
  "enum",
  "const",
  "type",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "reference_not_found",
  "reference_not_offered",
]);

/** One rule at one argument location of one tool, and the values sent there. */
export interface LocationCounts {
  readonly rule: string;
  /** JSON Pointer into the arguments with array indices written as `*`; for unknown keys, the key. */
  readonly pointer: string;
  failedCalls: number;
  /** Value (as JSON text) -> calls that sent it. */
  readonly values: Map<string, number>;
  /** Value -> the allowed value the guard suggested for it ("did you mean"): the member an alias would name. */
  readonly meant: Map<string, string>;
}

/** Per hour (ms since the epoch / 3 600 000): calls, failed calls and structural failed calls. */
export interface HourCounts {
  calls: number;
  failed: number;
  structural: number;
}

export interface ToolFold {
  calls: number;
  failedCalls: number;
  /** Chains by their final verdict. */
  readonly verdicts: Map<string, number>;
  /** Attempts answered with a question: an ambiguous reference. */
  ambiguousCalls: number;
  /** Attempts cut off by the output budget (`truncated`, or finish reason `length`). */
  truncatedCalls: number;
  /** Failed calls by rule (each rule once per call); `ambiguous_reference` counts questions. */
  readonly rules: Map<string, number>;
  /** Failed calls by rule and day (ms since the epoch / 86 400 000). */
  readonly ruleDays: Map<string, Map<number, number>>;
  /** Failed calls by failure class (syntactic, structural, semantic). */
  readonly classes: Map<string, number>;
  /** `rule pointer` -> counts. */
  readonly locations: Map<string, LocationCounts>;
  readonly hours: Map<number, HourCounts>;
  /** Longest raw arguments of a failed attempt, in characters: what a truncation finding sizes. */
  longestRaw: number;
}

/** The analysis of a ledger so far. Add entries in ledger order, then `finish()` once. */
export class ReportFold {
  readonly tools = new Map<string, ToolFold>();
  /** Lines skipped because a field had the wrong type. */
  malformed = 0;
  /** Marks of calls bounded by their process alone while the shared chain store was down (ledger/store-mark.ts): not chains, not calls. */
  chainStoreMarks = 0;
  /** Earliest and latest chain start seen (ms since the epoch). */
  first: number | undefined;
  last: number | undefined;
  readonly #open = new Map<string, Record<string, unknown>>();

  add(value: unknown): void {
    if (reportEntry(value) === undefined) {
      this.malformed++;
      return;
    }
    const entry = value as Record<string, unknown>;
    if (entry.verdict === "chain_store_unavailable") {
      this.chainStoreMarks++;
      return;
    }
    const chain = entry.chain as string;
    this.#open.delete(chain);
    if (entry.verdict === "open") {
      this.#open.set(chain, entry);
      if (this.#open.size > OPEN_WINDOW) {
        const [oldest, waiting] = this.#open.entries().next().value as [string, Record<string, unknown>];
        this.#open.delete(oldest);
        this.#count(waiting);
      }
      return;
    }
    this.#count(entry);
  }

  /**
   * A chain's final entry whose attempts all passed, read from its prefix (read-lines.ts): what
   * `add` counts of such an entry, without the entry.
   */
  addPassing(chain: string, toolName: string, verdict: string, started: number, attempts: number): void {
    this.#open.delete(chain);
    const tool = this.#tool(toolName);
    tool.verdicts.set(verdict, (tool.verdicts.get(verdict) ?? 0) + 1);
    tool.calls += attempts;
    if (!Number.isFinite(started)) return;
    if (this.first === undefined || started < this.first) this.first = started;
    if (this.last === undefined || started > this.last) this.last = started;
    const key = Math.floor(started / 3_600_000);
    const hour = tool.hours.get(key);
    if (hour === undefined) tool.hours.set(key, { calls: attempts, failed: 0, structural: 0 });
    else hour.calls += attempts;
  }

  /**
   * Counts the chains still open at the end of the ledger, as they stand; one waiting on an
   * unanswered question counts as `ambiguous`, the verdict the guard writes when it drops it.
   */
  finish(): this {
    for (const entry of this.#open.values()) {
      const last = (entry.attempts as Record<string, unknown>[]).at(-1);
      this.#count(last?.question !== undefined && last.failure === undefined ? { ...entry, verdict: "ambiguous" } : entry);
    }
    this.#open.clear();
    return this;
  }

  #count(entry: Record<string, unknown>): void {
    const tool = this.#tool(entry.tool as string);
    const verdict = entry.verdict as string;
    tool.verdicts.set(verdict, (tool.verdicts.get(verdict) ?? 0) + 1);
    const started = typeof entry.startedAt === "string" ? Date.parse(entry.startedAt) : Number.NaN;
    let hour: HourCounts | undefined;
    if (Number.isFinite(started)) {
      if (this.first === undefined || started < this.first) this.first = started;
      if (this.last === undefined || started > this.last) this.last = started;
      const key = Math.floor(started / 3_600_000);
      hour = tool.hours.get(key);
      if (hour === undefined) tool.hours.set(key, (hour = { calls: 0, failed: 0, structural: 0 }));
    }
    for (const attempt of entry.attempts as Record<string, unknown>[]) {
      tool.calls++;
      if (hour) hour.calls++;
      const errors = (attempt.errors ?? []) as Record<string, unknown>[];
      const question = attempt.question as { field?: unknown } | undefined;
      if (question && typeof question === "object") {
        tool.ambiguousCalls++;
        ruleOf(tool, "ambiguous_reference", started);
        const location = this.#location(tool, "ambiguous_reference", typeof question.field === "string" ? wildcard(question.field) : "");
        location.failedCalls++;
      }
      if (attempt.finishReason === "length" || errors.some((error) => error.rule === "truncated")) tool.truncatedCalls++;
      if (attempt.failure === undefined) continue;
      const raw = typeof attempt.raw === "string" ? attempt.raw : "";
      const length = typeof attempt.rawLength === "number" ? attempt.rawLength : raw.length;
      if (length > tool.longestRaw) tool.longestRaw = length;
      tool.failedCalls++;
      if (hour) hour.failed++;
      const failure = String(attempt.failure);
      bump(tool.classes, tool.classes.has(failure) || tool.classes.size < MAX_CLASSES ? failure : OTHER_CLASS);
      if (hour && failure === "structural") hour.structural++;
      const seenRules = new Set<string>();
      const seenLocations = new Set<LocationCounts>();
      let parsed: { value: unknown } | undefined;
      for (const error of errors) {
        const rule = error.rule as string;
        if (rule === "more_errors" || rule === "repair_budget") continue;
        if (!seenRules.has(rule)) {
          seenRules.add(rule);
          ruleOf(tool, rule, started);
        }
        // A syntactic failure is about the whole text, wherever the parser stopped.
        const path = failure === "syntactic" || typeof error.path !== "string" ? "" : error.path;
        const location = this.#location(tool, rule, wildcard(path));
        if (seenLocations.has(location)) continue;
        seenLocations.add(location);
        location.failedCalls++;
        let shown: string | undefined;
        if (rule === "additionalProperties") shown = JSON.stringify(lastToken(path));
        else if (VALUE_RULES.has(rule)) {
          parsed ??= parseRaw(attempt);
          if (parsed) shown = valueText(parsed.value, path);
        }
        if (shown !== undefined) {
          const key = location.values.has(shown) || location.values.size < MAX_VALUES ? shown : OTHER_VALUE;
          bump(location.values, key);
          if (rule === "enum" && key === shown && !location.meant.has(shown) && typeof error.message === "string") {
            const meant = DID_YOU_MEAN.exec(error.message)?.[1];
            if (meant !== undefined) location.meant.set(shown, meant.length > MAX_VALUE_CHARS ? `${meant.slice(0, MAX_VALUE_CHARS - 1)}…` : meant);
          }
        }
      }
    }
  }

  #tool(toolName: string): ToolFold {
    const name = this.tools.has(toolName) || this.tools.size < MAX_TOOLS ? toolName : OTHER_TOOLS;
    let tool = this.tools.get(name);
    if (tool === undefined)
      this.tools.set(
        name,
        (tool = {
          calls: 0,
          failedCalls: 0,
          verdicts: new Map(),
          ambiguousCalls: 0,
          truncatedCalls: 0,
          rules: new Map(),
          ruleDays: new Map(),
          classes: new Map(),
          locations: new Map(),
          hours: new Map(),
          longestRaw: 0,
        }),
      );
    return tool;
  }

  #location(tool: ToolFold, rule: string, pointer: string): LocationCounts {
    let key = `${rule} ${pointer}`;
    let location = tool.locations.get(key);
    if (location === undefined) {
      if (tool.locations.size >= MAX_LOCATIONS) {
        key = `${rule} ${OTHER_LOCATION}`;
        location = tool.locations.get(key);
        pointer = OTHER_LOCATION;
      }
      if (location === undefined) tool.locations.set(key, (location = { rule, pointer, failedCalls: 0, values: new Map(), meant: new Map() }));
    }
    return location;
  }
}

/** Counts a failed call under `rule` (past MAX_RULES rules, under OTHER_RULES), in total and on its day. */
function ruleOf(tool: ToolFold, rule: string, started: number): void {
  const name = tool.rules.has(rule) || tool.rules.size < MAX_RULES ? rule : OTHER_RULES;
  bump(tool.rules, name);
  if (!Number.isFinite(started)) return;
  const day = Math.floor(started / 86_400_000);
  let days = tool.ruleDays.get(name);
  if (days === undefined) tool.ruleDays.set(name, (days = new Map()));
  days.set(day, (days.get(day) ?? 0) + 1);
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
