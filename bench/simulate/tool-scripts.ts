// What the scripted model sends to each example tool: valid arguments, and each defect class of
// the brief as a model really makes it (the values are the ones models reach for: "euro" for
// EUR, "medium" for normal, a 20-minute meeting, a cut-off org chart).
import { choose, type Random } from "./random.ts";

export type ToolName = "create_invoice" | "schedule_meeting" | "search_tickets" | "update_org_chart";

export type DefectClass =
  | "wrong_enum"
  | "missing_required"
  | "wrong_type"
  | "wrong_format"
  | "out_of_bounds"
  | "truncated"
  | "code_fence"
  | "trailing_comma"
  | "unknown_field"
  | "ambiguous_reference"
  | "unknown_reference";

export interface ModelAttempt {
  readonly raw: string;
  readonly finishReason?: string;
}

interface ToolScript {
  valid(random: Random): Record<string, unknown>;
  readonly defects: Partial<Readonly<Record<DefectClass, (random: Random) => ModelAttempt>>>;
  /** The model's answer to an ambiguity question: the same call with the chosen candidate. */
  answer(candidate: string, random: Random): Record<string, unknown>;
}

const json = (value: unknown): ModelAttempt => ({ raw: JSON.stringify(value) });
/** Picks by weight: models repeat the same few wrong values, so the top value dominates. */
const weighted = <T>(random: Random, items: readonly (readonly [T, number])[]): T => {
  let roll = random() * items.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [item, weight] of items) if ((roll -= weight) < 0) return item;
  return items[0]?.[0] as T;
};

const invoice = (random: Random, customer = choose(["Globex", "Initech", "cus_00181"], random)) => ({
  amount: Math.round(random() * 500_000) / 100,
  currency: choose(["USD", "EUR", "GBP"], random),
  customer_ref: customer,
  line_items: [{ sku: `SKU-${1000 + Math.floor(random() * 9000)}`, quantity: 1 + Math.floor(random() * 20), unit_price: Math.round(random() * 10_000) / 100 }],
});

const meeting = (random: Random) => ({
  title: choose(["Weekly sync", "Design review", "1:1", "Planning"], random),
  starts_at: `2026-11-${String(3 + Math.floor(random() * 20)).padStart(2, "0")}T${String(8 + Math.floor(random() * 9)).padStart(2, "0")}:00:00+01:00`,
  duration_minutes: choose([15, 30, 45, 60, 90], random),
  attendees: [{ email: "ana@example.com" }, { email: "bo@example.com", optional: random() < 0.3 }],
  room: choose(["atlas", "borealis", "cosmos"], random),
  send_invites: random() < 0.8,
});

const search = (random: Random) => ({
  query: choose(["refund", "login fails", "invoice missing", "slow export"], random),
  status: [choose(["open", "pending"], random)],
  priority: choose(["low", "normal", "high", "urgent"], random),
  page: { size: choose([10, 25, 50], random) },
});

const team = (random: Random, depth: number, width: number): Record<string, unknown> => ({
  name: `Team ${Math.floor(random() * 1000)}`,
  lead_email: `lead${Math.floor(random() * 100)}@example.com`,
  headcount: Math.floor(random() * 40),
  ...(depth > 0 ? { subteams: Array.from({ length: width }, () => team(random, depth - 1, width)) } : {}),
});
const chart = (random: Random) => ({ root: team(random, 2, 2), dry_run: random() < 0.5 });

export const TOOL_SCRIPTS: Readonly<Record<ToolName, ToolScript>> = {
  create_invoice: {
    valid: (random) => invoice(random),
    answer: (candidate, random) => invoice(random, candidate),
    defects: {
      wrong_enum: (random) =>
        json({
          ...invoice(random),
          currency: weighted(random, [
            ["euro", 6],
            ["US$", 3],
            ["pounds", 1],
          ]),
        }),
      wrong_type: (random) =>
        json({
          ...invoice(random),
          amount: weighted(random, [
            ["€1,299.00", 3],
            ["1.299,00", 1],
          ]),
        }),
      ambiguous_reference: (random) => json(invoice(random, "Acme")),
      unknown_reference: (random) =>
        json(
          invoice(
            random,
            weighted(random, [
              ["Umbrella Corp", 3],
              ["Hooli", 1],
            ]),
          ),
        ),
      code_fence: (random) => ({ raw: `\`\`\`json\n${JSON.stringify(invoice(random), null, 2)}\n\`\`\`` }),
    },
  },
  schedule_meeting: {
    valid: meeting,
    answer: (_candidate, random) => meeting(random),
    defects: {
      wrong_enum: (random) =>
        json({
          ...meeting(random),
          duration_minutes: weighted(random, [
            [20, 5],
            [40, 2],
            [180, 1],
          ]),
        }),
      missing_required: (random) => {
        const { send_invites: _omitted, ...rest } = meeting(random);
        return json(rest);
      },
      wrong_format: (random) =>
        json({
          ...meeting(random),
          starts_at: weighted(random, [
            ["2026-11-03 10:00", 3],
            ["tomorrow at 10", 1],
          ]),
        }),
      trailing_comma: (random) => ({ raw: JSON.stringify(meeting(random)).replace(/}$/, ",}") }),
    },
  },
  search_tickets: {
    valid: search,
    answer: (_candidate, random) => search(random),
    defects: {
      wrong_enum: (random) =>
        json({
          ...search(random),
          priority: weighted(random, [
            ["medium", 5],
            ["critical", 2],
          ]),
        }),
      out_of_bounds: (random) =>
        json({
          ...search(random),
          page: {
            size: weighted(random, [
              [500, 3],
              [1000, 1],
            ]),
          },
        }),
    },
  },
  update_org_chart: {
    valid: chart,
    answer: (_candidate, random) => chart(random),
    defects: {
      // A whole division does not fit the output budget: the text stops mid-value.
      truncated: (random) => {
        const text = JSON.stringify({ root: team(random, 4, 4), dry_run: false });
        return { raw: text.slice(0, Math.floor(text.length * (0.3 + random() * 0.5))), finishReason: "length" };
      },
      unknown_field: (random) => json({ ...chart(random), root: { ...team(random, 1, 2), manager: "ana@example.com" } }),
      missing_required: (random) => json({ root: team(random, 1, 2) }),
    },
  },
};
