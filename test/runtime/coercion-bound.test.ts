// Issue 27, finding 2: coercion records are bounded. A 1 MiB array of numeric strings holds
// some 250,000 coercions; the outcome and the ledger list the first MAX_COERCION_RECORDS and
// count the rest, while every one of them is still applied (the implementation, the idempotency
// key and the ledger's `arguments` see all the numbers).
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCoercionTable } from "../../generator/emit/coercion-table.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MAX_COERCION_RECORDS } from "../../templates/runtime/coerce/coerce.ts";
import type { InputSchema, StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";

const SCHEMA = {
  type: "object",
  properties: { numbers: { type: "array", items: { type: "number" } }, flag: { type: "boolean" } },
  required: ["numbers"],
  additionalProperties: false,
};

let validate: StandaloneValidator;
beforeAll(async () => {
  validate = (await emitAndLoad(SCHEMA)).validate as unknown as StandaloneValidator;
});

function toolWith(ledger: JsonlFileSink, seen: { numbers?: unknown[] }) {
  const spec = {
    name: "hostile",
    description: "",
    inputSchema: SCHEMA as unknown as InputSchema,
    validate,
    coercions: buildCoercionTable(toolOf(SCHEMA)),
    hints: {},
    references: {},
  };
  return defineTool(spec).implement(
    (args, context) => {
      seen.numbers = (args as unknown as { numbers: unknown[] }).numbers;
      return context.idempotencyKey;
    },
    { ledger },
  );
}

const count = 250_000;
const text = JSON.stringify({ numbers: Array.from({ length: count }, (_, i) => String(i % 10)), flag: "true" });

describe("coercion records are bounded", () => {
  it("a 1 MiB array of numeric strings: the outcome lists the first coercions and counts the rest", async () => {
    expect(text.length).toBeLessThan(1024 * 1024);
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-coercions-")), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const seen: { numbers?: unknown[] } = {};
    const outcome = await toolWith(ledger, seen).call(text, { turn: "t" });
    expect(outcome.status).toBe("ok");
    if (outcome.status !== "ok") return;
    // Every string was coerced, the last one included.
    expect(seen.numbers).toHaveLength(count);
    expect(seen.numbers?.every((n, i) => n === i % 10)).toBe(true);
    expect(outcome.coercions).toHaveLength(MAX_COERCION_RECORDS);
    // The plan's patterns in order (`/flag` before `/numbers/*`), each in document order.
    expect(outcome.coercions[0]).toEqual({ path: "/flag", from: "true", to: true, rule: "string->boolean" });
    expect(outcome.coercions[1]).toEqual({ path: "/numbers/0", from: "0", to: 0, rule: "string->number" });
    expect(outcome.coercionsOmitted).toBe(count + 1 - MAX_COERCION_RECORDS);
    // What the model is handed stays small: the records, not 250,000 of them.
    expect(JSON.stringify(outcome).length).toBeLessThan(20_000);

    await ledger.close();
    const [line] = (await readFile(path, "utf8")).trim().split("\n");
    expect((line as string).length).toBeLessThan(1024 * 1024);
    const entry = JSON.parse(line as string) as LedgerEntry & { arguments?: { numbers: number[]; flag: boolean }; argumentsSha256?: string };
    const attempt = entry.attempts[0] as LedgerEntry["attempts"][number];
    expect(attempt.coercions).toHaveLength(MAX_COERCION_RECORDS);
    expect(attempt.coercionsOmitted).toBe(count + 1 - MAX_COERCION_RECORDS);
    expect(entry.idempotencyKey).toBe(outcome.idempotencyKey);
  });

  it("the idempotency key is the key of the arguments with every coercion applied", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-coercions-")), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const sent = await toolWith(ledger, {}).call(text, { turn: "a" });
    const asNumbers = JSON.stringify({ numbers: Array.from({ length: count }, (_, i) => i % 10), flag: true });
    const clean = await toolWith(ledger, {}).call(asNumbers, { turn: "b" });
    await ledger.close();
    expect(sent.status === "ok" && clean.status === "ok").toBe(true);
    if (sent.status === "ok" && clean.status === "ok") expect(sent.idempotencyKey).toBe(clean.idempotencyKey);
  });

  it("under the bound every coercion is listed and none is counted as omitted", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-coercions-")), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path });
    const outcome = await toolWith(ledger, {}).call('{"numbers": ["1", "2.5"], "flag": "false"}', { turn: "t" });
    await ledger.close();
    expect(outcome).toMatchObject({ status: "ok", coercions: [{ path: "/flag" }, { path: "/numbers/0" }, { path: "/numbers/1" }] });
    expect(JSON.parse(JSON.stringify(outcome))).not.toHaveProperty("coercionsOmitted");
  });
});
