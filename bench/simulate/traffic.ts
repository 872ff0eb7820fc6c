// A scripted model calling the shipped example tools (generated/) through the real guard, so the
// ledger it leaves is the one production would: the guard parses, validates, explains, asks and
// refuses, and the JSONL sink writes. The model makes the brief's defect classes in a seeded,
// configurable mix, repairs when told what was wrong (or not), and answers questions. The clock
// is simulated so a week of traffic is written in seconds with a week of timestamps.
//
// It lives under bench/ rather than in the CLI: it drives the example package, which a user's
// install does not have, and it is used by the bench, the tests and the docs alike.
import { createInvoice, JsonlFileSink, type LedgerSink, scheduleMeeting, searchTickets, updateOrgChart } from "../../generated/index.js";
import { type DefectClass, TOOL_SCRIPTS, type ToolName } from "./tool-scripts.ts";
import { mulberry32, type Random } from "./random.ts";

export type { DefectClass, ToolName };

/** A share of calls per defect class (0.02 = 2 in 100 first attempts); the rest are valid. */
export type DefectMix = Partial<Readonly<Record<DefectClass, number>>>;

/** From `fromDay` on (0 = the first day), `tool`'s first attempts follow `mix` instead. */
export interface MixChange {
  readonly tool: ToolName;
  readonly fromDay: number;
  readonly mix: DefectMix;
}

export interface SimulationOptions {
  /** Where the ledger is written (a JSONL file; rotated files are not used). */
  readonly ledger: string;
  /** Turns played; each is one chain of one or more calls. Default 100 000. */
  readonly turns?: number;
  /** Days the turns are spread over. Default 7. */
  readonly days?: number;
  /** The simulated time of the first turn (ISO 8601). Default 2026-11-02T00:00:00Z (a Monday). */
  readonly start?: string;
  /** Seed of the pseudo-random choices: the same seed writes the same ledger. Default 1. */
  readonly seed?: number;
  /** Defect mix per tool; a tool not named makes no defects. Default `DEFAULT_MIX`. */
  readonly mix?: Partial<Readonly<Record<ToolName, DefectMix>>>;
  /** Changes of mix over time (a regression on a given day, for the change alarm). */
  readonly changes?: readonly MixChange[];
  /** Share of tool calls per tool. Default: equal. */
  readonly traffic?: Partial<Readonly<Record<ToolName, number>>>;
  /** Chance that the model fixes what the failure envelope lists on its next attempt. Default 0.8. */
  readonly repairs?: number;
  /** Chance that the model answers an ambiguity question with one of the candidates (else it leaves). Default 0.7. */
  readonly answers?: number;
}

/** The mix the docs and the bench use: every class of the brief, at rates a tool team sees. */
export const DEFAULT_MIX: Readonly<Record<ToolName, DefectMix>> = {
  create_invoice: { wrong_enum: 0.03, wrong_type: 0.01, ambiguous_reference: 0.02, unknown_reference: 0.008, code_fence: 0.004 },
  schedule_meeting: { wrong_enum: 0.02, missing_required: 0.05, wrong_format: 0.01, trailing_comma: 0.003 },
  search_tickets: { wrong_enum: 0.004, out_of_bounds: 0.003 },
  update_org_chart: { truncated: 0.04, unknown_field: 0.01, missing_required: 0.01 },
};

/** What the simulation did, for the caller to check against the report. */
export interface SimulationSummary {
  readonly turns: number;
  /** Guard calls made (every attempt). */
  readonly calls: number;
  /** First attempts that carried each defect class, per tool. */
  readonly defects: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Simulated time of the first and last turn. */
  readonly from: string;
  readonly to: string;
}

const DAY = 86_400_000;
/** Attempts the model makes in one turn before it gives up (the guard refuses sooner). */
const MAX_ATTEMPTS = 5;

export async function simulateTraffic(options: SimulationOptions): Promise<SimulationSummary> {
  const turns = options.turns ?? 100_000;
  const days = options.days ?? 7;
  const start = Date.parse(options.start ?? "2026-11-02T00:00:00Z");
  if (!Number.isInteger(turns) || turns < 1) throw new RangeError(`simulateTraffic: turns must be a positive integer, got ${turns}`);
  if (!(days > 0)) throw new RangeError(`simulateTraffic: days must be positive, got ${days}`);
  if (!Number.isFinite(start)) throw new RangeError(`simulateTraffic: start must be an ISO 8601 time, got ${options.start}`);
  const random = mulberry32(options.seed ?? 1);
  const mix = options.mix ?? DEFAULT_MIX;
  const repairs = options.repairs ?? 0.8;
  const answers = options.answers ?? 0.7;
  const tools = Object.keys(TOOL_SCRIPTS) as ToolName[];
  const weights = tools.map((tool) => options.traffic?.[tool] ?? 1);
  // Durability is not what the simulation is about: no fsync per failure, one file however large.
  const sink = new JsonlFileSink({ path: options.ledger, sync: false, failures: "batched", maxFileBytes: Number.POSITIVE_INFINITY });
  const guards = guardsWith(sink);
  const defects: Record<string, Record<string, number>> = {};
  let calls = 0;
  // The guard stamps each chain with Date.now(): the simulated clock stands in for the run.
  const realNow = Date.now;
  let now = start;
  Date.now = () => now;
  try {
    for (let turn = 0; turn < turns; turn++) {
      now = start + Math.floor(((turn + random()) * days * DAY) / turns);
      const tool = pick(tools, weights, random);
      const day = Math.floor((now - start) / DAY);
      const change = options.changes?.filter((one) => one.tool === tool && one.fromDay <= day).at(-1);
      const defect = chooseDefect(change?.mix ?? mix[tool] ?? {}, random);
      if (defect) {
        const counts = (defects[tool] ??= {});
        counts[defect] = (counts[defect] ?? 0) + 1;
      }
      calls += await playTurn(guards[tool], tool, defect, `turn-${turn}`, random, repairs, answers);
    }
    await sink.close();
  } finally {
    Date.now = realNow;
  }
  return { turns, calls, defects, from: new Date(start).toISOString(), to: new Date(now).toISOString() };
}

interface Guard {
  call(raw: unknown, context: { turn: string; finishReason?: string }): Promise<{ status: string; question?: { candidates: readonly { id: string }[] } }>;
}

function guardsWith(ledger: LedgerSink): Record<ToolName, Guard> {
  const customers = [
    { id: "cus_00181", label: "Acme BV (Rotterdam)" },
    { id: "cus_00922", label: "Acme Holding BV (Antwerp)" },
    { id: "cus_00400", label: "Globex GmbH (Berlin)" },
    { id: "cus_00401", label: "Initech Ltd (London)" },
  ];
  const customer = (text: string) => customers.filter((one) => one.id === text || one.label.toLowerCase().includes(text.toLowerCase()));
  return {
    create_invoice: createInvoice.implement(() => "drafted", { ledger, resolvers: { customer } }) as unknown as Guard,
    schedule_meeting: scheduleMeeting.implement(() => "booked", { ledger }) as unknown as Guard,
    search_tickets: searchTickets.implement(() => [], { ledger }) as unknown as Guard,
    update_org_chart: updateOrgChart.implement(() => "saved", { ledger }) as unknown as Guard,
  };
}

/** One turn: the first attempt (with its defect), then repairs and answers until the guard settles it. Returns the calls made. */
async function playTurn(
  guard: Guard,
  tool: ToolName,
  defect: DefectClass | undefined,
  turn: string,
  random: Random,
  repairs: number,
  answers: number,
): Promise<number> {
  const script = TOOL_SCRIPTS[tool];
  let attempt = defect ? script.defects[defect]?.(random) : undefined;
  attempt ??= { raw: JSON.stringify(script.valid(random)) };
  for (let made = 1; ; made++) {
    const outcome = await guard.call(attempt.raw, { turn, ...(attempt.finishReason ? { finishReason: attempt.finishReason } : {}) });
    if (outcome.status === "ok" || outcome.status === "arguments_rejected" || made >= MAX_ATTEMPTS) return made;
    if (outcome.status === "ambiguous_reference") {
      const candidates = outcome.question?.candidates ?? [];
      if (candidates.length === 0 || random() >= answers) return made; // the model leaves; the chain ends ambiguous
      attempt = { raw: JSON.stringify(script.answer(candidates[Math.floor(random() * candidates.length)]?.id as string, random)) };
      continue;
    }
    // A failure envelope: the model fixes what it lists, or makes the same mistake again.
    attempt =
      random() < repairs
        ? { raw: JSON.stringify(script.valid(random)) }
        : (script.defects[defect as DefectClass]?.(random) ?? { raw: JSON.stringify(script.valid(random)) });
  }
}

function chooseDefect(mix: DefectMix, random: Random): DefectClass | undefined {
  let roll = random();
  for (const [defect, share] of Object.entries(mix) as [DefectClass, number][]) {
    if (roll < share) return defect;
    roll -= share;
  }
  return undefined;
}

function pick<T>(items: readonly T[], weights: readonly number[], random: Random): T {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let roll = random() * total;
  for (let index = 0; index < items.length; index++) {
    roll -= weights[index] as number;
    if (roll < 0) return items[index] as T;
  }
  return items[items.length - 1] as T;
}
