// How `toolguard report` reads one ledger entry from anyone: the fields it counts, type-checked
// (a line whose fields have the wrong type is skipped and counted, never fatal), and the caps on
// tools and rules that keep its memory bounded by them, not by the ledger
// (generator/report/fold.ts folds entries one at a time).

/** Tools reported one by one; past it, the rest are counted together under `OTHER_TOOLS`. */
export const MAX_TOOLS = 10_000;
/** Rules listed per tool; past it, the rest are counted together under `OTHER_RULES`. */
export const MAX_RULES = 200;
export const OTHER_TOOLS = "(other tools)";
export const OTHER_RULES = "(other rules)";

/** What the report counts of one entry, once its fields are known to have the right types. */
export interface ReportEntry {
  readonly chain: string;
  readonly tool: string;
  readonly verdict: string;
  /** Per attempt: `undefined` when it passed, else the rules it broke (each once). */
  readonly attempts: readonly (readonly string[] | undefined)[];
}

/** Rules that say how a list ended, not what was wrong. */
const NOT_RULES: ReadonlySet<string> = new Set(["more_errors", "repair_budget"]);

/** The entry as the report reads it, or `undefined` when any field it reads has the wrong type. */
export function reportEntry(value: unknown): ReportEntry | undefined {
  if (!isObject(value)) return undefined;
  const { chain, tool, verdict, attempts } = value;
  if (typeof chain !== "string" || typeof tool !== "string" || typeof verdict !== "string" || !Array.isArray(attempts)) return undefined;
  const read: (readonly string[] | undefined)[] = [];
  for (const attempt of attempts) {
    if (!isObject(attempt)) return undefined;
    const { failure, errors } = attempt;
    if (failure !== undefined && typeof failure !== "string") return undefined;
    if (errors !== undefined && !Array.isArray(errors)) return undefined;
    if (failure === undefined) {
      read.push(undefined);
      continue;
    }
    const rules = new Set<string>();
    for (const error of errors ?? []) {
      if (!isObject(error) || typeof error.rule !== "string") return undefined;
      if (!NOT_RULES.has(error.rule)) rules.add(error.rule);
    }
    read.push([...rules]);
  }
  return { chain, tool, verdict, attempts: read };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
