// Issue 26: a clean entry (one passing attempt with nothing but its raw text, verdict `ok`) is
// decided clean when it is made (chain-record.ts `cleanShapeOf`) and its line is written from fixed
// pieces around the turn and the raw text (entry-text.ts `writeCleanEntry`). What the shortcut
// must still honour is the tool's, not the entry's: the redactor (a raw text naming a secret key
// is redacted), the text cap, and every member that makes an entry not clean.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { entryLine } from "../../templates/runtime/ledger/line.ts";
import { entryArguments } from "../../templates/runtime/ledger/read.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";
import { expectedBack, readBack } from "./read-back.ts";

/** An open schema (any key passes): whether a raw text may be kept as it is depends on its keys. */
const noteSchema = { type: "object", properties: { title: { type: "string" }, body: { type: "string" } }, required: ["title"] } as const;

function noteSpec(): ToolSpec {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(noteSchema) as unknown as StandaloneValidator;
  return { name: "note", description: "", inputSchema: noteSchema as unknown as ToolSpec["inputSchema"], validate, coercions: {}, hints: {}, references: {} };
}

function capture(): { entries: LedgerEntry[]; ledger: { append(entry: LedgerEntry): void; flush(): Promise<void>; close(): Promise<void> } } {
  const entries: LedgerEntry[] = [];
  return { entries, ledger: { append: (entry) => entries.push(entry), flush: async () => undefined, close: async () => undefined } };
}

/**
 * The line as the documented order writes a clean entry: version 3, the raw text embedded as it is
 * after `"args":`, when the text holds no line break; else version 1, its JSON value, members in place.
 */
function cleanLine(entry: LedgerEntry, raw: string): string {
  const value = JSON.parse(JSON.stringify(entry)) as LedgerEntry;
  const { v, chain, tool, turn, startedAt, verdict } = value;
  if (!/[\n\r]/.test(raw)) return `${JSON.stringify({ v: 3, chain, tool, turn, startedAt, verdict }).slice(0, -1)},"args":${raw}}\n`;
  return `${JSON.stringify({ v, chain, tool, turn, startedAt, verdict, attempts: [{ raw, errors: [], coercions: [] }], repairs: 0 })}\n`;
}

describe("a clean entry's line", () => {
  it("is the documented line of its entry, byte for byte, whatever its texts hold", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(noteSpec()).implement(() => "done", { ledger });
    const raws = [
      JSON.stringify({ title: "Found a bug", body: "I'm having a problem with this." }),
      JSON.stringify({ title: 'quotes " and \\ backslashes', body: "line\nbreak\ttab \u0001 \u2028 é 𝄞" }),
      ` { "title" : "spaced" } `,
      `{\n  "title": "pretty-printed",\r\n  "body": "x"\n}`,
    ];
    for (const [index, raw] of raws.entries()) await tool.call(raw, { turn: index === 1 ? 't"\n' : `turn-${index}` });
    expect(entries).toHaveLength(raws.length);
    for (const [index, entry] of entries.entries()) expect(entryLine(entry, 1 << 20)).toBe(cleanLine(entry, raws[index] as string));
  });

  it("is the same line when the entry was read before it was written", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(noteSpec()).implement(() => "done", { ledger });
    await tool.call(JSON.stringify({ title: "read first" }), { turn: "a" });
    await tool.call(JSON.stringify({ title: "read first" }), { turn: "b" });
    const [read, unread] = entries as [LedgerEntry, LedgerEntry];
    // Reading `attempts`, the id and the time fixes them; the line writes them as read.
    expect(read.attempts).toHaveLength(1);
    const chain = read.chain;
    const startedAt = read.startedAt;
    const line = entryLine(read, 1 << 20);
    expect(JSON.parse(line)).toMatchObject({ chain, startedAt });
    expect(line).toBe(cleanLine(read, JSON.stringify({ title: "read first" })));
    expect(entryLine(unread, 1 << 20)).toBe(cleanLine(unread, JSON.stringify({ title: "read first" })));
  });

  it("redacts a passing raw text that names a secret key (the redactor is asked at write time)", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(noteSpec()).implement(() => "done", { ledger });
    await tool.call(JSON.stringify({ title: "login", password: "hunter2" }), { turn: "t" });
    const line = entryLine(entries[0] as LedgerEntry, 1 << 20);
    expect(line).not.toContain("hunter2");
    expect(JSON.parse(line).attempts[0]).toMatchObject({ redacted: 1 });
  });

  it("cuts a passing raw text past the tool's text cap, with its length and hash", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(noteSpec()).implement(() => "done", { ledger, maxLedgerTextChars: 64 });
    const raw = JSON.stringify({ title: "x".repeat(200) });
    await tool.call(raw, { turn: "t" });
    const attempt = JSON.parse(entryLine(entries[0] as LedgerEntry, 1 << 20)).attempts[0];
    expect(attempt.raw).toHaveLength(64);
    expect(attempt).toMatchObject({ rawLength: raw.length, rawSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("writes the members that make an entry not clean: a finish reason, guard timing", async () => {
    const { entries, ledger } = capture();
    const timed = defineTool(noteSpec()).implement(() => "done", { ledger, timing: true });
    const plain = defineTool(noteSpec()).implement(() => "done", { ledger });
    await plain.call(JSON.stringify({ title: "stopped" }), { turn: "f", finishReason: "stop" });
    await timed.call(JSON.stringify({ title: "timed" }), { turn: "g" });
    const [finished, withTiming] = entries.map((entry) => JSON.parse(entryLine(entry, 1 << 20))) as [LedgerEntry, LedgerEntry];
    expect(finished.attempts[0]).toMatchObject({ finishReason: "stop" });
    expect(withTiming.attempts[0]?.guardMs).toEqual(expect.any(Number));
    for (const entry of entries) expect(JSON.parse(entryLine(entry, 1 << 20))).toEqual(JSON.parse(JSON.stringify(entry)));
  });
});

describe("a clean resolved entry's line", () => {
  const resolvers = { customer: () => [{ id: "cus_1", label: "Acme BV" }] };

  it("is version 3, its resolution before the embedded text, read back as `argumentsResolved`, the same line the general writer writes", async () => {
    const { entries, ledger } = capture();
    const spec: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
    const tool = defineTool<unknown, unknown, "customer">(spec).implement(() => "done", { ledger, resolvers });
    await tool.call(JSON.stringify(validInvoice), { turn: "a" });
    await tool.call(JSON.stringify(validInvoice), { turn: "b" });
    const [fast, read] = entries as [LedgerEntry, LedgerEntry];
    expect(read.attempts).toHaveLength(1); // read first: written by the general writer
    const line = entryLine(fast, 1 << 20);
    const general = entryLine(read, 1 << 20);
    expect(
      line.endsWith(
        `,"verdict":"ok","resolved":{"path":"/customer_ref","text":"Acme BV","id":"cus_1","target":"customer_id"},"args":${JSON.stringify(validInvoice)}}\n`,
      ),
    ).toBe(true);
    expect(readBack(line)).toMatchObject({ v: 3, argumentsResolved: true, attempts: [{ resolutions: [{ path: "/customer_ref", id: "cus_1" }] }] });
    // The two lines differ only in their id, turn and time.
    const bare = (text: string): string => text.replace(/"chain":"[^"]*","tool":"[^"]*","turn":"[ab]","startedAt":"[^"]*"/, "");
    expect(bare(line)).toBe(bare(general));
    expect(readBack(line)).toEqual(expectedBack(fast, line));
    expect(entryArguments(readBack(line))).toEqual(entryArguments(JSON.parse(JSON.stringify(fast)) as LedgerEntry));
    // A text with a line break keeps the escaped version-2 line.
    await tool.call(JSON.stringify(validInvoice, null, 2), { turn: "c" });
    const pretty = entryLine(entries[2] as LedgerEntry, 1 << 20);
    expect(JSON.parse(pretty)).toMatchObject({ v: 2, argumentsResolved: true });
    expect(JSON.parse(pretty)).toEqual(JSON.parse(JSON.stringify(entries[2])));
  });

  it("redacts a resolution into a secret-named key, and writes the arguments redacted", async () => {
    const { entries, ledger } = capture();
    const spec: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_token" } } };
    const tool = defineTool<unknown, unknown, "customer">(spec).implement(() => "done", { ledger, resolvers });
    await tool.call(JSON.stringify(validInvoice), { turn: "t" });
    const line = entryLine(entries[0] as LedgerEntry, 1 << 20);
    expect(line).not.toContain("cus_1");
    expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(entries[0])));
  });
});
