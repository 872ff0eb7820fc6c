// Issue 26: the sink's lines are written into one reused buffer (ledger/line-writer.ts), fixed
// parts as bytes encoded once. Every line must read back as the value JSON.stringify(entry) holds,
// whatever its strings hold (non-ASCII, lone surrogates, control characters, quotes), and the
// per-line cap is counted in UTF-8 bytes.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { LineWriter } from "../../templates/runtime/ledger/line-writer.ts";
import { entryLine, writeLine } from "../../templates/runtime/ledger/line.ts";
import { sha256 } from "../../templates/runtime/ledger/record-policy.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";
import { expectedBack, readBack } from "./read-back.ts";

function entriesOf(tool: string, calls: readonly [string, string][], maxLedgerTextChars = 16_384): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  const ledger = { append: (entry: LedgerEntry) => void entries.push(entry), flush: async () => undefined, close: async () => undefined };
  const guarded = defineTool({ ...invoiceSpec(), name: tool }).implement(() => "done", { ledger, redact: false, maxLedgerTextChars });
  return Promise.all(calls.map(([raw, turn]) => guarded.call(raw, { turn }))).then(() => entries);
}

/** Strings a model or a caller can send: every escape JSON has, and every UTF-8 length. */
const ODD = [
  "plain",
  'quote " backslash \\ slash /',
  "\u0000\u0001\u001f\b\f\n\r\t",
  "é ß 中文 😀",
  "\ud800 lone high",
  "lone low \udc00",
  "\udbff\udfff",
  "\u2028\u2029\u007f",
];

describe("the line writer", () => {
  it("writes every entry the guard makes as the value JSON.stringify gives, whatever its strings hold", async () => {
    for (const tool of ["create_invoice", 'wéird "tool" \ud83d\ude00', "\ud800"]) {
      const calls: [string, string][] = ODD.flatMap((text, i) => [
        [JSON.stringify({ ...validInvoice, customer_ref: text }), `valid ${text}`],
        [`{"amount": ${JSON.stringify(text)}`, `broken ${i} ${text}`],
      ]);
      const entries = await entriesOf(tool, calls);
      expect(entries.length).toBeGreaterThanOrEqual(calls.length);
      for (const entry of entries) {
        const line = entryLine(entry, 1 << 20);
        expect(line.indexOf("\n")).toBe(line.length - 1);
        expect(readBack(line)).toEqual(expectedBack(entry, line));
      }
    }
  });

  it("writes many lines into one buffer, growing it for a line longer than its bound and shrinking it again", async () => {
    const entries = await entriesOf(
      "create_invoice",
      [
        [JSON.stringify({ ...validInvoice, customer_ref: "a".repeat(10) }), "short"],
        [JSON.stringify({ ...validInvoice, customer_ref: "é".repeat(200_000) }), "long"],
        [JSON.stringify({ ...validInvoice, customer_ref: "b".repeat(10) }), "after"],
      ],
      1_000_000,
    );
    const out = new LineWriter(1024);
    for (const entry of entries) writeLine(out, entry, 1 << 30);
    const lines = Buffer.from(out.bytes()).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map(readBack)).toEqual(entries.map((entry, index) => expectedBack(entry, lines[index] as string)));
    expect(lines.map((line) => readBack(line).turn)).toEqual(["short", "long", "after"]);
    out.reset();
    expect(out.length).toBe(0);
    writeLine(out, entries[0] as LedgerEntry, 1 << 30);
    const again = Buffer.from(out.bytes()).toString("utf8");
    expect(readBack(again)).toEqual(expectedBack(entries[0] as LedgerEntry, again));
  });

  it("replaces a line longer than maxEntryBytes (counted in UTF-8 bytes) by a stub with its length and hash", async () => {
    const [entry] = await entriesOf("create_invoice", [[JSON.stringify({ ...validInvoice, customer_ref: "€".repeat(400) }), "t"]]);
    const whole = entryLine(entry as LedgerEntry, 1 << 20);
    const bytes = Buffer.byteLength(whole, "utf8") - 1;
    // 400 characters of three bytes each: over a 1,000-byte cap though under 1,000 UTF-16 units.
    expect(whole.length).toBeLessThan(1000);
    expect(bytes).toBeGreaterThan(1000);
    const stub = JSON.parse(entryLine(entry as LedgerEntry, 1000)) as LedgerEntry & { oversize: { length: number; sha256: string } };
    expect(stub).toMatchObject({ chain: entry?.chain, turn: "t", verdict: "ok", attempts: [] });
    expect(stub.oversize).toEqual({ length: bytes, sha256: sha256(whole.slice(0, -1)) });
    expect(JSON.parse(entryLine(entry as LedgerEntry, bytes))).toEqual(JSON.parse(whole));
  });

  it("writes an entry that cannot be serialised as a stub that says so, and the next line whole", () => {
    const cyclic = { v: 1, tool: "t", turn: "c" } as Record<string, unknown>;
    cyclic.self = cyclic;
    const out = new LineWriter(1024);
    writeLine(out, cyclic as unknown as LedgerEntry, 1 << 20);
    writeLine(out, { v: 1, chain: "x", tool: "t", turn: "ok", startedAt: "", verdict: "ok", attempts: [], repairs: 0 }, 1 << 20);
    const [first, second] = Buffer.from(out.bytes())
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ v: 1, tool: "t", turn: "c", unserialisable: expect.stringMatching(/circular/i) });
    expect(second).toMatchObject({ turn: "ok" });
  });
});

describe("every line version written so far is read", () => {
  it("reads version 1 (arguments, stubs) and version 2 (argumentsResolved) lines, as written by earlier writers", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { readLedger, entryArguments } = await import("../../templates/runtime/ledger/read.ts");
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-versions-")), "ledger.jsonl");
    const base = '"tool":"create_invoice","startedAt":"2026-01-01T00:00:00.000Z"';
    await writeFile(
      path,
      [
        `{"v":1,"chain":"a",${base},"turn":"plain","verdict":"ok","attempts":[{"raw":"{\\"amount\\":1}","errors":[],"coercions":[]}],"repairs":0}`,
        `{"v":1,"chain":"b",${base},"turn":"coerced","verdict":"ok","attempts":[{"raw":"{\\"amount\\":\\"1\\"}","errors":[],"coercions":[{"path":"/amount","from":"1","to":1,"rule":"string_to_number"}]}],"repairs":0,"arguments":{"amount":1}}`,
        `{"v":2,"chain":"c",${base},"turn":"resolved","verdict":"ok","attempts":[{"raw":"{\\"customer_ref\\":\\"Acme\\"}","errors":[],"coercions":[],"resolutions":[{"path":"/customer_ref","text":"Acme","id":"cus_1","target":"customer_id"}]}],"repairs":0,"argumentsResolved":true}`,
        `{"v":1,"chain":"d",${base},"turn":"stub","verdict":"ok","attempts":[],"repairs":0,"oversize":{"length":2000000,"sha256":"00"}}`,
        "",
      ].join("\n"),
    );
    const entries = await readLedger(path);
    expect(entries.map((entry) => entry.turn)).toEqual(["plain", "coerced", "resolved", "stub"]);
    expect(entries.map((entry) => entryArguments(entry))).toEqual([{ amount: 1 }, { amount: 1 }, { customer_id: "cus_1" }, undefined]);
  });
});
