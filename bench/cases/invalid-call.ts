// Figure 2, one process: an invoice with five errors. The guarded call's complete
// validation_failed envelope (explained errors with hints, ledger entry in memory) vs
// JSON.parse + ajv's own error list from the same standalone validator. Prints one JSON line.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SMALL } from "../lib/fixtures.ts";
import { sideBySide } from "../lib/side-by-side.ts";
import { INVALID_INVOICE } from "../lib/bodies.ts";
import { loadFloorValidator } from "../lib/floor-validator.ts";

const generated = path.join(SMALL, "generated");
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(generated, file)).href)) as T;
type Outcome = { status: string; errors?: readonly unknown[] };
const pkg = await load<{
  tools: Record<string, { inputSchema: Record<string, unknown>; implement(impl: () => unknown, options: object): { call(raw: unknown, context: { turn: string }): Promise<Outcome> } }>;
  MemorySink: new () => { size: number; clear(): void };
}>("index.js");

const raw = JSON.stringify(INVALID_INVOICE);
const sink = new pkg.MemorySink();
const tool = pkg.tools.create_invoice;
if (!tool) throw new Error("create_invoice missing from the bench package");
const validate = await loadFloorValidator(generated, "create_invoice", tool.inputSchema);
const guarded = tool.implement(() => "done", { ledger: sink, resolvers: { customer: () => [{ id: "cus_1", label: "Acme BV" }] } });
const first = await guarded.call(raw, { turn: "warm" });
if (first.status !== "validation_failed") throw new Error(`expected validation_failed, got ${first.status}`);
validate(JSON.parse(raw));
let turn = 0;
const ns = await sideBySide(
  {
    ajvErrors: () => (validate(JSON.parse(raw)) ? undefined : validate.errors),
    envelope: () => {
      if (sink.size > 1000) sink.clear();
      // A fresh turn each time: the first attempt of a chain, so every call gets the full envelope.
      return guarded.call(raw, { turn: `t${turn++}` });
    },
  },
  { batch: 2_000 },
);
console.log(JSON.stringify({ ...ns, envelopeErrorCount: first.errors?.length ?? 0, ajvErrorCount: validate.errors?.length ?? 0 }));
