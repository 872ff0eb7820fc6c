// The share of a ledger's recent successful calls that the new schemas would refuse: each
// call's arguments as the model sent them (the attempt that passed, with its recorded
// coercions applied, as the guard validated them) checked with ajv against the tool's new
// input schema. A removed tool refuses every call.
import { latestPerChain, type LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { setAt } from "../../templates/runtime/coerce/set-at.ts";
import { prepareCompile } from "../emit/validator.ts";
import type { ToolDescription } from "../ir.ts";
import type { ToolDiff } from "./change.ts";

/** How many of the most recent successful calls per tool are replayed, by default. */
export const DEFAULT_RECENT_CALLS = 1000;

export interface ReplayResult {
  /** Successful calls found and replayed. */
  readonly checked: number;
  /** How many of them the new schema refuses. */
  readonly failing: number;
  /** `failing / checked`, 0 when nothing was checked. */
  readonly share: number;
  /** A few refusals: the chain and what the new schema says, for the reviewer. */
  readonly examples: readonly { readonly chain: string; readonly errors: readonly string[] }[];
  /** Why the calls could not be replayed (the new schema does not compile), when they could not. */
  readonly error?: string;
}

/**
 * Replays, per changed tool, its recent successful calls (under its old name when renamed)
 * against `after`, the new side's tool of that name.
 */
export function replayLedger(
  entries: readonly LedgerEntry[],
  diffs: readonly ToolDiff[],
  after: ReadonlyMap<string, ToolDescription>,
  recent: number = DEFAULT_RECENT_CALLS,
): Map<string, ReplayResult> {
  const successes = new Map<string, LedgerEntry[]>();
  for (const entry of latestPerChain(entries)) {
    if (entry.verdict !== "ok" && entry.verdict !== "repaired") continue;
    const list = successes.get(entry.tool) ?? [];
    list.push(entry);
    successes.set(entry.tool, list);
  }
  const results = new Map<string, ReplayResult>();
  for (const diff of diffs) {
    if (diff.status === "unchanged" || diff.status === "added") continue;
    const calls = (successes.get(diff.previousName ?? diff.name) ?? []).slice(-recent);
    const tool = diff.status === "removed" ? undefined : after.get(diff.name);
    results.set(diff.name, replayCalls(calls, tool));
  }
  return results;
}

function replayCalls(calls: readonly LedgerEntry[], tool: ToolDescription | undefined): ReplayResult {
  if (!tool)
    return {
      checked: calls.length,
      failing: calls.length,
      share: calls.length > 0 ? 1 : 0,
      examples: calls.slice(0, 3).map((call) => ({ chain: call.chain, errors: ["the tool no longer exists"] })),
    };
  if (calls.length === 0) return { checked: 0, failing: 0, share: 0, examples: [] };
  // ajv for the schema as written (no folding), with toolguard's options and formats.
  const { ajv, compiled } = prepareCompile(tool.dialect, tool.inputSchema, false);
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(compiled);
  } catch (error) {
    // `generate` refuses such a schema with its location; here the replay only says it could not run.
    return { checked: 0, failing: 0, share: 0, examples: [], error: `the new schema does not compile: ${(error as Error).message}` };
  }
  let failing = 0;
  const examples: { chain: string; errors: string[] }[] = [];
  for (const call of calls) {
    const args = sentArguments(call);
    if (args === undefined || validate(args)) continue;
    failing++;
    if (examples.length < 3)
      examples.push({
        chain: call.chain,
        errors: (validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || "/"} ${error.keyword}: ${error.message ?? ""}`.trim()),
      });
  }
  return { checked: calls.length, failing, share: calls.length > 0 ? failing / calls.length : 0, examples };
}

/** The arguments the guard validated on the chain's passing attempt, or undefined if unreadable. */
function sentArguments(entry: LedgerEntry): unknown {
  const attempt = entry.attempts.at(-1);
  if (!attempt) return undefined;
  // Past MAX_COERCION_RECORDS the attempt lists only the first coercions: the entry's
  // `arguments` then hold them all (with no reference resolved into them, they are exactly what
  // was validated); otherwise the call cannot be rebuilt and is not replayed.
  if (attempt.coercionsOmitted !== undefined) return attempt.resolutions === undefined ? entry.arguments : undefined;
  let value: unknown;
  try {
    value = JSON.parse(attempt.raw);
  } catch {
    return undefined;
  }
  for (const coercion of attempt.coercions) setAt(value, coercion.path, coercion.to);
  return value;
}
