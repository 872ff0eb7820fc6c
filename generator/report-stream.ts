// `toolguard report` over a ledger of any size, from anyone: entries are read one at a time and
// folded into per-tool counts, so memory is bounded by the caps below, not by the file (a 72 MB
// ledger used to take 650 MB, every chain held whole). A chain is rewritten while it waits for
// a repair, and only its latest entry counts: the contribution of each of the last
// `CHAIN_WINDOW` chains is kept so that a later entry of the same chain replaces it. A line
// whose fields have the wrong type is skipped and counted, never fatal.

/** Chains whose latest entry can still be replaced by a later one: a chain is rewritten within its turn. */
export const CHAIN_WINDOW = 65_536;
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

/** One tool's counts so far. */
export interface ToolCounts {
  calls: number;
  failedCalls: number;
  repaired: number;
  rejected: number;
  readonly rules: Map<string, number>;
}

/** What one chain's latest entry added, to take back when a later entry replaces it. */
interface Contribution {
  readonly counts: ToolCounts;
  readonly entry: ReportEntry;
  /** Its place in the ring of recent chains. */
  readonly slot: number;
}

export class ReportTally {
  readonly tools = new Map<string, ToolCounts>();
  readonly #window = new Map<string, Contribution>();
  /** The last CHAIN_WINDOW chains in order, as a ring: the oldest leaves in constant time. */
  readonly #ring: (string | undefined)[] = new Array(CHAIN_WINDOW);
  #next = 0;
  /** Lines skipped because a field had the wrong type. */
  malformed = 0;
  /** Marks of calls bounded by their process alone while the shared chain store was down (not chains). */
  chainStoreMarks = 0;

  add(value: unknown): void {
    const entry = reportEntry(value);
    if (entry === undefined) {
      this.malformed++;
      return;
    }
    if (entry.verdict === "chain_store_unavailable") {
      this.chainStoreMarks++;
      return;
    }
    const earlier = this.#window.get(entry.chain);
    if (earlier) this.#apply(earlier.counts, earlier.entry, -1);
    const counts = this.#counts(entry.tool);
    this.#apply(counts, entry, 1);
    const slot = this.#next;
    this.#next = (slot + 1) % CHAIN_WINDOW;
    const leaving = this.#ring[slot];
    // The chain in this slot leaves the window unless a later entry moved it to a newer slot.
    if (leaving !== undefined && this.#window.get(leaving)?.slot === slot) this.#window.delete(leaving);
    this.#ring[slot] = entry.chain;
    this.#window.set(entry.chain, { counts, entry, slot });
  }

  #counts(tool: string): ToolCounts {
    let counts = this.tools.get(tool);
    if (counts === undefined) {
      const name = this.tools.size >= MAX_TOOLS ? OTHER_TOOLS : tool;
      counts = this.tools.get(name);
      if (counts === undefined) this.tools.set(name, (counts = { calls: 0, failedCalls: 0, repaired: 0, rejected: 0, rules: new Map() }));
    }
    return counts;
  }

  #apply(counts: ToolCounts, entry: ReportEntry, sign: 1 | -1): void {
    if (entry.verdict === "repaired") counts.repaired += sign;
    if (entry.verdict === "rejected") counts.rejected += sign;
    for (const rules of entry.attempts) {
      counts.calls += sign;
      if (rules === undefined) continue;
      counts.failedCalls += sign;
      for (const rule of rules) {
        const name = counts.rules.has(rule) || counts.rules.size < MAX_RULES ? rule : OTHER_RULES;
        const count = (counts.rules.get(name) ?? 0) + sign;
        if (count === 0) counts.rules.delete(name);
        else counts.rules.set(name, count);
      }
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
