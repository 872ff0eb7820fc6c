// `npm run simulate -- [LEDGER] [--turns N] [--days D] [--seed S] [--regression]`: writes a
// simulated week of traffic over the example tools (traffic.ts) to LEDGER (default
// .toolguard/simulated.jsonl), replacing it. --regression doubles create_invoice's structural
// failures from day 4, which the report's change alarm names.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { simulateTraffic } from "./traffic.ts";

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { turns: { type: "string" }, days: { type: "string" }, seed: { type: "string" }, regression: { type: "boolean" } },
  });
}
try {
  parsed = parse();
} catch (error) {
  process.stderr.write(`simulate: ${(error as Error).message}\n`);
  process.exit(2);
}
const number = (name: string, text: string | undefined, fallback: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`simulate: --${name} takes a positive number, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
};
const ledger = path.resolve(parsed.positionals[0] ?? ".toolguard/simulated.jsonl");
const turns = Math.round(number("turns", parsed.values.turns, 100_000));
const days = number("days", parsed.values.days, 7);
const seed = number("seed", parsed.values.seed, 1);
mkdirSync(path.dirname(ledger), { recursive: true });
rmSync(ledger, { force: true });
const summary = await simulateTraffic({
  ledger,
  turns,
  days,
  seed,
  ...(parsed.values.regression
    ? { changes: [{ tool: "create_invoice", fromDay: 4, mix: { wrong_enum: 0.08, wrong_type: 0.03, ambiguous_reference: 0.02, code_fence: 0.004 } }] }
    : {}),
});
process.stdout.write(`simulate: ${summary.turns} turns, ${summary.calls} calls from ${summary.from} to ${summary.to} written to ${ledger}\n`);
