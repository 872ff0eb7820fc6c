// Figure 2, one process: invalid arguments. The guarded call's complete validation_failed
// envelope (explained errors with hints, ledger entry in memory) vs JSON.parse + ajv's own error
// list from ajv's validator for the same schema. Then, per case, the same envelope with the
// default JSONL sink (a real file): its failure entry is written and synced before the envelope
// returns (issue 26), so that cost is the envelope's; beside it `failures: "batched"` (the entry
// queued, its slice flushed inside the timed batch). Prints one JSON line, a record per case.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SMALL } from "../lib/fixtures.ts";
import { sideBySide } from "../lib/side-by-side.ts";
import { INVALID_INVOICE, INVALID_RULESET, ONE_MISTAKE_GITHUB, ONE_MISTAKE_INVOICE } from "../lib/bodies.ts";
import { loadFloorValidator } from "../lib/floor-validator.ts";

const generated = path.join(SMALL, "generated");
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(generated, file)).href)) as T;
type Outcome = { status: string; errors?: readonly unknown[] };
const pkg = await load<{
  tools: Record<
    string,
    {
      inputSchema: Record<string, unknown>;
      implement(impl: () => unknown, options: object): { call(raw: unknown, context: { turn: string }): Promise<Outcome> };
    }
  >;
  MemorySink: new () => { size: number; clear(): void };
  JsonlFileSink: new (options: object) => { flush(): Promise<unknown>; close(): Promise<unknown>; stats(): { written: number; appended: number } };
}>("index.js");
const folder = mkdtempSync(path.join(tmpdir(), "toolguard-bench-invalid-"));

// Each case: a label, the tool and its invalid arguments. The invoice is the figure; the
// ruleset shows a union-heavy schema, where ajv's list is long and the envelope collapses it; the
// one-mistake invoice is the commonest failed call (issue 16's target: <= 3x).
const CASES: Record<string, readonly [string, unknown]> = {
  create_invoice: ["create_invoice", INVALID_INVOICE],
  "create_invoice, one mistake": ["create_invoice", ONE_MISTAKE_INVOICE],
  "repos_create-org-ruleset": ["repos_create-org-ruleset", INVALID_RULESET],
  ...Object.fromEntries(Object.entries(ONE_MISTAKE_GITHUB).map(([name, body]) => [`${name}, one mistake`, [name, body] as const])),
};
const results: Record<string, Record<string, number>> = {};
for (const [label, [name, args]] of Object.entries(CASES)) {
  const raw = JSON.stringify(args);
  const sink = new pkg.MemorySink();
  const tool = pkg.tools[name];
  if (!tool) throw new Error(`${name} missing from the bench package`);
  const validate = await loadFloorValidator(generated, name, tool.inputSchema);
  const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };
  const guarded = tool.implement(() => "done", { ledger: sink, resolvers });
  const through = new pkg.JsonlFileSink({ path: path.join(folder, `${name}-through.jsonl`) });
  const batched = new pkg.JsonlFileSink({ path: path.join(folder, `${name}-batched.jsonl`), failures: "batched" });
  const writtenThrough = tool.implement(() => "done", { ledger: through, resolvers });
  const writtenBatched = tool.implement(() => "done", { ledger: batched, resolvers });
  const first = await guarded.call(raw, { turn: "warm" });
  if (first.status !== "validation_failed") throw new Error(`${name}: expected validation_failed, got ${first.status}`);
  if (validate(JSON.parse(raw))) throw new Error(`${name}: ajv accepts the invalid arguments`);
  const ajvErrorCount = validate.errors?.length ?? 0;
  let turn = 0;
  const ns = await sideBySide(
    {
      ajvErrors: () => (validate(JSON.parse(raw)) ? undefined : validate.errors),
      envelope: () => {
        if (sink.size > 1000) sink.clear();
        // A fresh turn each time: the first attempt of a chain, so every call gets the full envelope.
        return guarded.call(raw, { turn: `t${turn++}` });
      },
      envelopeWrittenThrough: () => writtenThrough.call(raw, { turn: `t${turn++}` }),
      envelopeBatched: () => writtenBatched.call(raw, { turn: `t${turn++}` }),
    },
    // Smaller batches: a written-through failure costs an fdatasync each.
    { batch: 200, rounds: 10, cpu: true, settle: true, charged: { envelopeBatched: () => batched.flush() } },
  );
  await through.close();
  await batched.close();
  if (through.stats().written !== through.stats().appended) throw new Error(`${label}: written-through entries were not all written`);
  results[label] = { ...ns, envelopeErrorCount: first.errors?.length ?? 0, ajvErrorCount };
}
rmSync(folder, { recursive: true, force: true });
console.log(JSON.stringify(results));
