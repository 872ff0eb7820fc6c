// One tool rehearsed: a valid call built from its schema, the mistakes models make against it
// (the seeded generator of mistakes/), the envelope its guard gives each, and whether the literal
// repairer, which reads only the envelope, could act on it. The guard is the one a generated
// package builds (load-tool.ts), so what is scored here is what a model would be told.
import type { ToolDescription } from "../ir.ts";
import { adviceFor } from "./advice.ts";
import { type EnvelopeError, get, repair, repairText } from "./literal-repairer.ts";
import { loadTool, type LoadedTool } from "./load-tool.ts";
import { type CorpusCase, type Expected, repairable, sentOf } from "./mistake-case.ts";
import { mistakesOf } from "./mistakes/classes.ts";
import { unionTagMistakes } from "./mistakes/union-calls.ts";
import { instanceOf } from "./mistakes/instance.ts";
import type { Schema } from "./mistakes/schema-view.ts";
import { carries } from "./mistakes/scoring.ts";
import { type Seeded, seeded, seedOf } from "./mistakes/seeded.ts";

/** Seeds tried for a valid call (a pattern or a rule across fields can refuse the first one made). */
const TRIES = 4;

/**
 * How well an envelope served one mistake, weakest first:
 * - `missed`: the envelope neither carries the fix nor gets the call repaired;
 * - `misrepaired`: the repaired call passes, but it is not the call meant (another allowed
 *   value was offered, say): a model would go on with a value nobody asked for;
 * - `unrepaired`: it carries the fix, but the repaired call is still refused;
 * - `stated`: no literal fix exists (a missing fact, a bound, a cut-off text) and the envelope says what it must;
 * - `repaired`: the literal repairer's one round makes the call pass.
 */
export type Verdict = "missed" | "misrepaired" | "unrepaired" | "stated" | "repaired";
export const VERDICTS: readonly Verdict[] = ["missed", "misrepaired", "unrepaired", "stated", "repaired"];

export interface RehearsedCase {
  /** The class of mistake (the generator's name for it). */
  readonly mistake: string;
  /** The arguments sent, or for a call that is not JSON, undefined (see `text`). */
  readonly args?: unknown;
  /** A call sent as text that is not JSON. */
  readonly text?: string;
  /** What the envelope must carry for this mistake, in the literal repairer's grammar. */
  readonly expected: Expected;
  /** The envelope's errors. */
  readonly errors: readonly EnvelopeError[];
  readonly flagged: boolean;
  /** Whether a literal fix exists for this mistake at all. */
  readonly repairable: boolean;
  readonly repaired: boolean;
  readonly verdict: Verdict;
  /** The schema change that would help, where one is known. */
  readonly advice?: string;
}

export interface RehearsedTool {
  readonly tool: string;
  /** The schema file the tool was read from. */
  readonly source: string;
  /** The valid call the mistakes were made from; undefined when none could be built. */
  readonly validCall?: unknown;
  /** The guard's errors for the valid call, when it refuses it (a false rejection). */
  readonly validCallErrors?: readonly EnvelopeError[];
  /** Why the tool has no cases (no valid call could be built, or its guard refused the one built). */
  readonly note?: string;
  readonly cases: readonly RehearsedCase[];
}

export interface RehearseOptions {
  /** The generator's seed: the same seed gives the same cases. */
  readonly seed: number;
  /** At most this many cases per tool, spread over the classes. */
  readonly limit: number;
}

export async function rehearseTool(description: ToolDescription, options: RehearseOptions): Promise<RehearsedTool> {
  const base = { tool: description.name, source: description.source.file };
  const tool = await loadTool(description);
  const schema = description.inputSchema as Schema;
  // Each tool's cases depend on the seed and its own name only, not on the tools beside it.
  const random = seeded(seedOf(`${options.seed} ${description.name}`));
  const valid = validCallOf(tool, schema, random);
  if (valid === undefined)
    return { ...base, note: "no valid call could be built from the schema (a pattern or a rule across fields refused every try)", cases: [] };
  const refused = await tool.envelope(valid);
  if (refused !== undefined)
    return { ...base, validCall: valid, validCallErrors: refused, note: "the guard refuses a call that plain JSON Schema validation accepts", cases: [] };
  const cases: RehearsedCase[] = [];
  // The union-tag classes on a call holding each member of every tagged union (union-calls.ts).
  const accepts = (call: unknown): boolean => tool.ajvErrors(call) === undefined;
  const unions = unionTagMistakes(description.name, base.source, schema, { valid, random, accepts });
  for (const entry of spread([...mistakesOf(description.name, base.source, schema, valid, random), ...unions], options.limit, random)) {
    const scored = await scoreCase(entry, tool);
    if (scored === undefined) continue;
    const advice = weak(scored) ? adviceFor(entry, schema) : undefined;
    cases.push(advice === undefined ? scored : { ...scored, advice });
  }
  return { ...base, validCall: valid, cases: weakestFirst(cases) };
}

/** A call the schema accepts, built from it with `random`; undefined when no try passes. */
export function validCallOf(tool: LoadedTool, schema: Schema, random: Seeded, documented?: unknown): unknown {
  let valid: unknown = documented;
  // The schema's own examples and defaults first; then, where one of them is no value its schema
  // takes (tsoa's `format: date` whose example is a date-time), values made from the types alone.
  for (let attempt = 0; valid === undefined && attempt < 2 * TRIES; attempt++) {
    const candidate = instanceOf(schema, schema, random, { depth: 0, documented: attempt < TRIES, attempt });
    if (candidate !== undefined && tool.ajvErrors(candidate) === undefined) valid = candidate;
  }
  return valid === undefined || tool.ajvErrors(valid) !== undefined ? undefined : valid;
}

/** Whether the literal repairer, given `errors`, makes the case's call pass in one round. */
export async function repairedBy(entry: CorpusCase, tool: LoadedTool, errors: readonly EnvelopeError[]): Promise<boolean> {
  return (await repairedCall(entry, tool, errors)) !== undefined;
}

/** The call the literal repairer makes of `errors` when the guard accepts it (a text as the arguments it spells); else undefined. */
async function repairedCall(entry: CorpusCase, tool: LoadedTool, errors: readonly EnvelopeError[]): Promise<{ readonly call: unknown } | undefined> {
  if (!repairable(entry)) return undefined;
  if (entry.text === undefined) {
    const call = repair(entry.args, errors);
    return (await tool.envelope(call)) === undefined ? { call } : undefined;
  }
  const text = repairText(entry.text, errors);
  return (await tool.envelopeOfText(text)) === undefined ? { call: JSON.parse(text) as unknown } : undefined;
}

/**
 * Whether a repaired call holds what the case meant where the case is about: the expected value
 * at its place, a moved or renamed value at its new place, a removed field gone; for a text, the
 * arguments the text spells. Other places are not compared: one expected fix stands for a case
 * that may need several (each field of a flattened item moved).
 */
function meant(entry: CorpusCase, call: unknown): boolean {
  const expected = entry.expect;
  const sent = entry.args;
  switch (expected.op) {
    case "set":
      return canonical(get(call, expected.path)) === canonical(expected.value);
    case "move":
      return canonical(get(call, expected.to)) === canonical(get(sent, expected.from));
    case "rename": {
      const to = `${expected.path.slice(0, expected.path.lastIndexOf("/"))}/${expected.to.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      return canonical(get(call, to)) === canonical(get(sent, expected.path));
    }
    case "remove":
      return get(call, expected.path) === undefined;
    default:
      return canonical(call) === canonical(sent);
  }
}

/** JSON with every object's keys sorted: two values that differ only in key order are the same. */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** The case through the guard; undefined when the mutation happened to be a valid call. */
async function scoreCase(entry: CorpusCase, tool: LoadedTool): Promise<RehearsedCase | undefined> {
  const errors = entry.text === undefined ? await tool.envelope(entry.args) : await tool.envelopeOfText(entry.text);
  if (errors === undefined) return undefined;
  const flagged = carries(entry.expect, errors, sentOf(entry));
  const fixable = repairable(entry);
  const made = await repairedCall(entry, tool, errors);
  const repaired = made !== undefined;
  const verdict: Verdict =
    made !== undefined ? (meant(entry, made.call) ? "repaired" : "misrepaired") : fixable ? (flagged ? "unrepaired" : "missed") : flagged ? "stated" : "missed";
  return {
    mistake: entry.mistake,
    ...(entry.text === undefined ? { args: entry.args } : { text: entry.text }),
    expected: entry.expect,
    errors,
    flagged,
    repairable: fixable,
    repaired,
    verdict,
  };
}

/**
 * At most `limit` cases, taken one class at a time in turn (the classes in a seeded order), so a
 * small limit still covers many classes and another seed covers others.
 */
function spread(cases: readonly CorpusCase[], limit: number, random: Seeded): CorpusCase[] {
  const byClass = new Map<string, CorpusCase[]>();
  for (const entry of cases) byClass.set(entry.mistake, [...(byClass.get(entry.mistake) ?? []), entry]);
  const groups = [...byClass.values()];
  for (let i = groups.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [groups[i], groups[j]] = [groups[j] as CorpusCase[], groups[i] as CorpusCase[]];
  }
  const out: CorpusCase[] = [];
  for (let round = 0; out.length < limit && out.length < cases.length; round++) {
    for (const group of groups) {
      const entry = group[round];
      if (entry !== undefined && out.length < limit) out.push(entry);
    }
  }
  return out;
}

/** Weakest verdict first; within one, the generator's order (stable sort). */
function weakestFirst(cases: readonly RehearsedCase[]): RehearsedCase[] {
  return [...cases].sort((a, b) => VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict));
}

/** Whether a case's message failed the model: no fix, a fix that does not pass, or a repair to another call than meant. */
export function weak(entry: RehearsedCase): boolean {
  return entry.verdict === "missed" || entry.verdict === "misrepaired" || entry.verdict === "unrepaired";
}

/** How many of a tool's cases are weak, for ordering tools weakest first. */
export function weakCount(tool: RehearsedTool): number {
  return tool.cases.filter(weak).length;
}
