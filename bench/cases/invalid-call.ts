// Figure 2, one process: invalid arguments. The guarded call's complete validation_failed
// envelope (explained errors with hints, ledger entry in memory) vs JSON.parse + ajv's own error
// list from ajv's validator for the same schema. Then, per case, the same envelope with the
// default JSONL sink (a real file): its failure entry is written and synced before the envelope
// returns (issue 26), so that cost is the envelope's; beside it `failures: "batched"` (the entry
// queued, its slice flushed inside the timed batch). Every contender cycles 4,096 distinct texts of
// its case (lib/bodies.ts `distinctTexts`: the same mistakes, a number after a free text), as
// figure 1 does: a repeated text would let the caches keyed by the last text (the redactor's
// secret-name scan, the explanation's) answer for free. Each one-mistake body is measured twice:
// its wrong value the same in every text, and new in each (a first-time mistake, which the
// per-location message memory cannot answer). Prints one JSON line, a record per case.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SMALL } from "../lib/fixtures.ts";
import { sideBySide } from "../lib/side-by-side.ts";
import { distinctTexts, INVALID_INVOICE, INVALID_RULESET, ONE_MISTAKE_GITHUB, ONE_MISTAKE_INVOICE, validTexts } from "../lib/bodies.ts";
import { variedMistakeTexts } from "../lib/varied-mistakes.ts";
import { loadFloorValidator } from "../lib/floor-validator.ts";

const generated = path.join(SMALL, "generated");
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(generated, file)).href)) as T;
type Outcome = { status: string; errors?: readonly unknown[] };
const pkg = await load<{
  tools: Record<
    string,
    {
      inputSchema: Record<string, unknown>;
      implement(
        impl: () => unknown,
        options: object,
      ): {
        call(raw: unknown, context: { turn: string }): Promise<Outcome>;
        check(raw: unknown, context: { turn: string }): { ok: true } | { ok: false; outcome: Outcome };
      };
    }
  >;
  MemorySink: new () => { size: number; clear(): void };
  JsonlFileSink: new (options: object) => { flush(): Promise<unknown>; close(): Promise<unknown>; stats(): { written: number; appended: number } };
}>("index.js");
const folder = mkdtempSync(path.join(tmpdir(), "toolguard-bench-invalid-"));

// Each case: a label, the tool, its 4,096 texts, and for a one-mistake case how many distinct
// wrong values they carry. The invoice is the figure; the ruleset shows a union-heavy
// schema, where ajv's list is long and the envelope collapses it; the one-mistake invoice is the
// commonest failed call (issue 16's target: <= 3x). Each one-mistake body comes twice: with the
// same wrong value in every text (a repeated mistake: its message is remembered per location
// from the second call) and with a new wrong value in each (lib/varied-mistakes.ts: a first-time
// mistake). The seven-mistake invoice varies its bad SKU, which stays bad.
interface Case {
  readonly name: string;
  readonly texts: () => { readonly texts: readonly string[]; readonly wrongValues?: number };
}
const COUNT = 4096;
const oneMistake = (name: string, body: unknown): Record<string, Case> => ({
  [`${name}, one mistake, same wrong value`]: { name, texts: () => ({ texts: distinctTexts(name, body, COUNT), wrongValues: 1 }) },
  [`${name}, one mistake, new wrong value`]: { name, texts: () => variedMistakeTexts(name, body, COUNT) },
});
const CASES: Record<string, Case> = {
  create_invoice: { name: "create_invoice", texts: () => ({ texts: distinctTexts("create_invoice", INVALID_INVOICE, COUNT, ["line_items", "0", "sku"]) }) },
  ...oneMistake("create_invoice", ONE_MISTAKE_INVOICE),
  "repos_create-org-ruleset": { name: "repos_create-org-ruleset", texts: () => ({ texts: distinctTexts("repos_create-org-ruleset", INVALID_RULESET, COUNT) }) },
  ...Object.assign({}, ...Object.entries(ONE_MISTAKE_GITHUB).map(([name, body]) => oneMistake(name, body))),
};
const results: Record<string, Record<string, number>> = {};
for (const [caseNumber, [label, { name, texts: make }]] of Object.entries(CASES).entries()) {
  const { texts, wrongValues } = make();
  let next = 0;
  const text = (): string => texts[next++ & (COUNT - 1)] as string;
  const sink = new pkg.MemorySink();
  const tool = pkg.tools[name];
  if (!tool) throw new Error(`${name} missing from the bench package`);
  const validate = await loadFloorValidator(generated, name, tool.inputSchema);
  const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };
  const guarded = tool.implement(() => "done", { ledger: sink, resolvers });
  const through = new pkg.JsonlFileSink({ path: path.join(folder, `${caseNumber}-${name}-through.jsonl`) });
  const batched = new pkg.JsonlFileSink({ path: path.join(folder, `${caseNumber}-${name}-batched.jsonl`), failures: "batched" });
  const writtenThrough = tool.implement(() => "done", { ledger: through, resolvers });
  const writtenBatched = tool.implement(() => "done", { ledger: batched, resolvers });
  // Every text is the same mistakes: ajv fails each with as many errors, the envelope with as many.
  const first = await guarded.call(texts[0], { turn: "warm" });
  if (first.status !== "validation_failed") throw new Error(`${name}: expected validation_failed, got ${first.status}`);
  if (validate(JSON.parse(texts[0] as string))) throw new Error(`${name}: ajv accepts the invalid arguments`);
  const ajvErrorCount = validate.errors?.length ?? 0;
  for (const [index, variant] of texts.entries()) {
    const checked = guarded.check(variant, { turn: `same-${index}` });
    if (checked.ok || checked.outcome.errors?.length !== first.errors?.length || validate(JSON.parse(variant)) || validate.errors?.length !== ajvErrorCount)
      throw new Error(`${label}: text ${index} is not the same mistakes as the first`);
  }
  sink.clear();
  let turn = 0;
  // The turns each JSONL contender left open: closed below, into its own sink, before it closes.
  const open = { through: [] as string[], batched: [] as string[] };
  const opened = (turns: string[]): string => {
    const opening = `t${turn++}`;
    turns.push(opening);
    return opening;
  };
  const ns = await sideBySide(
    {
      ajvErrors: () => {
        const value = JSON.parse(text());
        return validate(value) ? undefined : validate.errors;
      },
      envelope: () => {
        if (sink.size > 1000) sink.clear();
        // A fresh turn each time: the first attempt of a chain, so every call gets the full envelope.
        return guarded.call(text(), { turn: `t${turn++}` });
      },
      envelopeWrittenThrough: () => writtenThrough.call(text(), { turn: opened(open.through) }),
      envelopeBatched: () => writtenBatched.call(text(), { turn: opened(open.batched) }),
    },
    // Smaller batches: a written-through failure costs an fdatasync each.
    { batch: 200, rounds: 10, cpu: true, settle: true, charged: { envelopeBatched: () => batched.flush() } },
  );
  // A valid attempt in each turn a JSONL contender opened closes its chain, into that contender's
  // sink: the process-wide store would otherwise evict those chains during a later case, into a
  // sink closed by then ("1 entry dropped: ... the sink is closed"), and charge it to that case.
  const valid = validTexts(name, 1)[0] as string;
  for (const [guard, turns] of [
    [writtenThrough, open.through],
    [writtenBatched, open.batched],
  ] as const)
    for (let at = 0; at < turns.length; at += 512) await Promise.all(turns.slice(at, at + 512).map((turn) => guard.call(valid, { turn })));
  await through.close();
  await batched.close();
  if (through.stats().written !== through.stats().appended) throw new Error(`${label}: written-through entries were not all written`);
  results[label] = { ...ns, envelopeErrorCount: first.errors?.length ?? 0, ajvErrorCount, ...(wrongValues === undefined ? {} : { wrongValues }) };
}
rmSync(folder, { recursive: true, force: true });
console.log(JSON.stringify(results));
