// Issue 16.1: when only references changed the arguments, the line leaves `arguments` out and
// says `argumentsResolved` (version 2): the passing attempt's raw text and resolutions, both on
// the line, give them back. Readers derive them, old lines still read, and the compact form is
// never used when it would hide a redaction or a cut.
import { join } from "node:path";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { entryArguments, readLedger } from "../../templates/runtime/ledger/read.ts";
import { TempProject } from "../helpers/temp-project.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

const withReference: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };

let project: TempProject | undefined;
afterEach(() => project?.remove());

async function written(
  calls: readonly string[],
  options: { spec?: ToolSpec; id?: string; maxLedgerTextChars?: number } = {},
): Promise<{ entries: LedgerEntry[]; received: unknown[]; text: string }> {
  const path = join(await mkdtemp(join(tmpdir(), "toolguard-resolved-")), "ledger.jsonl");
  const ledger = new JsonlFileSink({ path, sync: false });
  const received: unknown[] = [];
  const tool = defineTool<unknown, unknown, "customer">(options.spec ?? withReference).implement((args) => void received.push(structuredClone(args)), {
    ledger,
    resolvers: { customer: () => [{ id: options.id ?? "cus_1", label: "Acme BV" }] },
    ...(options.maxLedgerTextChars ? { maxLedgerTextChars: options.maxLedgerTextChars } : {}),
  });
  for (const [index, raw] of calls.entries()) await tool.call(raw, { turn: `t${index}` });
  await ledger.close();
  return { entries: await readLedger(path), received, text: await readFile(path, "utf8") };
}

describe("argumentsResolved (ledger version 2)", () => {
  it("round-trips through readLedger: entryArguments gives what the implementation received", async () => {
    const raws = [
      JSON.stringify(validInvoice),
      // Spaced, escaped, the reference field in the middle: the text is parsed, never spliced.
      ` { "amount" : 5, "customer_ref" : "Acme \\u0042V", "currency":"EUR",\n"due_date":"2026-01-31","line_items":[] } `,
    ];
    const { entries, received } = await written(raws);
    expect(entries).toHaveLength(2);
    for (const [index, entry] of entries.entries()) {
      // A text without a line break is embedded (version 3, its resolution beside it); the spaced one keeps version 2.
      expect(entry).toMatchObject({ v: index === 0 ? 3 : 2, verdict: "ok", argumentsResolved: true });
      expect(entry).not.toHaveProperty("arguments");
      expect(entryArguments(entry)).toEqual(received[index]);
      expect(entryArguments(entry)).toMatchObject({ customer_id: "cus_1" });
      expect(entryArguments(entry)).not.toHaveProperty("customer_ref");
    }
  });

  it("`toolguard report` reads version-2 lines beside version-1 ones", async () => {
    const { text } = await written([JSON.stringify(validInvoice), JSON.stringify({ ...validInvoice, currency: "euro" })]);
    const old = {
      v: 1,
      chain: "old",
      tool: "create_invoice",
      turn: "x",
      startedAt: "2026-01-01T00:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw: "{}", errors: [], coercions: [] }],
      repairs: 0,
    };
    project = new TempProject();
    project.write("ledger.jsonl", `${JSON.stringify(old)}\n${text}`);
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    const [report] = (JSON.parse(result.stdout) as { tools: { tool: string; calls: number; failedCalls: number }[] }).tools;
    expect(report).toMatchObject({ tool: "create_invoice", calls: 3, failedCalls: 1 });
  });

  it("old lines keep their meaning: `arguments` as written, or the raw text parsed", () => {
    const attempt = {
      raw: JSON.stringify(validInvoice),
      errors: [],
      coercions: [],
      resolutions: [{ path: "/customer_ref", text: "Acme", id: "c", target: "customer_id" }],
    };
    const base = { v: 1, chain: "c", tool: "t", turn: "t", startedAt: "", verdict: "ok", attempts: [attempt], repairs: 0 } as const;
    expect(entryArguments({ ...base, arguments: { amount: 1 } })).toEqual({ amount: 1 });
    expect(entryArguments(base)).toEqual(validInvoice);
  });

  it("is not used when a coercion changed the arguments too", async () => {
    const { entries, received } = await written([JSON.stringify({ ...validInvoice, amount: "1299" })]);
    expect(entries[0]).toMatchObject({ v: 1, arguments: received[0] });
    expect(entries[0]).not.toHaveProperty("argumentsResolved");
  });

  it("is not used when the raw text was cut: the arguments' length and hash are written", async () => {
    const { entries } = await written([JSON.stringify(validInvoice)], { maxLedgerTextChars: 64 });
    expect(entries[0]).toMatchObject({ v: 1, argumentsLength: expect.any(Number), argumentsSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(entries[0]).not.toHaveProperty("argumentsResolved");
  });

  it("is not used when the resolved id goes to a secret property: the id stays redacted everywhere", async () => {
    const spec: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "session_token" } } };
    const { entries, text } = await written([JSON.stringify(validInvoice)], { spec, id: "tok-secret-1" });
    expect(text).not.toContain("tok-secret-1");
    expect(entries[0]).toMatchObject({ v: 1, arguments: { session_token: "[redacted]" } });
    expect(entries[0]).not.toHaveProperty("argumentsResolved");
  });
});
