// The line is a byte format (docs/ledger.md, "The line, byte by byte"): the members in one
// documented order, each value as `JSON.stringify` writes it. The writer special-cases common
// entries (a clean call's fixed pieces, a resolved call's resolution written as precomputed
// pieces around its text and id); whatever it special-cases, every line must be byte for byte
// `JSON.stringify` of its entry with the members put in the documented order.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { ChainRecord } from "../../templates/runtime/ledger/chain-record.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { entryLine } from "../../templates/runtime/ledger/line.ts";
import { invoiceSpec, validInvoice } from "../runtime/invoice-spec.ts";

const ENTRY_ORDER = [
  "v",
  "chain",
  "tool",
  "turn",
  "startedAt",
  "verdict",
  "attempts",
  "attemptsOmitted",
  "repairs",
  "arguments",
  "argumentsLength",
  "argumentsSha256",
  "argumentsResolved",
  "idempotencyKey",
];
const ATTEMPT_ORDER = [
  "raw",
  "rawLength",
  "rawSha256",
  "redacted",
  "finishReason",
  "failure",
  "errors",
  "coercions",
  "coercionsOmitted",
  "absent",
  "resolutions",
  "question",
  "guardMs",
];
const RESOLUTION_ORDER = ["path", "text", "id", "target"];

/** `value`'s members in `order`; a member the order does not name fails the test (the format would not say where it goes). */
function ordered(value: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  for (const key of Object.keys(value)) expect(order, `a member the line format does not place: ${key}`).toContain(key);
  return Object.fromEntries(order.filter((key) => key in value).map((key) => [key, value[key]]));
}

/**
 * The documented line of `entry`: its JSON value, members reordered as docs/ledger.md lists them;
 * for a clean entry of the guard's (one attempt with nothing but its raw text, verdict `ok`, no
 * repairs) whose text holds no line break, version 3: the head, then `"args":` and the text as sent.
 */
function documentedLine(entry: LedgerEntry): string {
  const value = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
  const only = (value.attempts as Record<string, unknown>[])[0];
  const resolutions = only?.resolutions as Record<string, unknown>[] | undefined;
  const resolved = value.argumentsResolved === true && resolutions?.length === 1;
  const clean =
    value.verdict === "ok" &&
    value.repairs === 0 &&
    (value.attempts as unknown[]).length === 1 &&
    Object.keys(value).every((key) => [...ENTRY_ORDER.slice(0, 9), ...(resolved ? ["argumentsResolved"] : [])].includes(key) && key !== "attemptsOmitted") &&
    JSON.stringify(Object.keys(only ?? {})) === (resolved ? '["raw","errors","coercions","resolutions"]' : '["raw","errors","coercions"]') &&
    JSON.stringify([only?.errors, only?.coercions]) === "[[],[]]";
  const raw = only?.raw as string;
  if (clean && !/[\n\r]/.test(raw) && !/\p{Cs}/u.test(raw)) {
    const head = ordered({ ...value, v: 3, attempts: undefined, repairs: undefined, argumentsResolved: undefined }, ENTRY_ORDER);
    const resolution = resolved ? `,"resolved":${JSON.stringify(ordered(resolutions?.[0] as Record<string, unknown>, RESOLUTION_ORDER))}` : "";
    return `${JSON.stringify(head).slice(0, -1)}${resolution},"args":${raw}}\n`;
  }
  const attempts = (value.attempts as Record<string, unknown>[]).map((attempt) => {
    const resolutions = attempt.resolutions as Record<string, unknown>[] | undefined;
    return ordered(resolutions ? { ...attempt, resolutions: resolutions.map((resolution) => ordered(resolution, RESOLUTION_ORDER)) } : attempt, ATTEMPT_ORDER);
  });
  return `${JSON.stringify(ordered({ ...value, attempts }, ENTRY_ORDER))}\n`;
}

function capture(): { entries: LedgerEntry[]; ledger: { append(entry: LedgerEntry): void; flush(): Promise<void>; close(): Promise<void> } } {
  const entries: LedgerEntry[] = [];
  return { entries, ledger: { append: (entry) => entries.push(entry), flush: async () => undefined, close: async () => undefined } };
}

/** Texts with every escape JSON has and every UTF-8 length, for the resolved text, the id and the turn. */
const ODD = ["Acme BV", 'quote " backslash \\', "\u0000\u001f\b\f\n\r\t", "é ß 中文 😀", "\ud800 lone", "\u2028\u2029\u007f", "x".repeat(300)];

describe("the line's bytes", () => {
  it("are JSON.stringify of the entry in the documented member order, for every kind of entry the guard makes", async () => {
    const { entries, ledger } = capture();
    const customer = (query: string) =>
      query === "Acme"
        ? [
            { id: "cus_1", label: "Acme BV" },
            { id: "cus_2", label: "Acme Ltd" },
          ]
        : // Printable ids (the resolver's check) with a quote, a backslash and non-ASCII to escape.
          [{ id: query === "Acme BV" ? "cus_1" : `cus "\\ é ${query.length}`, label: "a customer" }];
    const product = (query: string) => [{ id: `prod ${query.length} 中`, label: "a product" }];
    // One reference field (the planned, fixed-place way), and two with one inside an array (the general way).
    const one: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "customer_id" } } };
    const two: ToolSpec = { ...one, references: { ...one.references, "/line_items/*/sku": { kind: "product", target: "product_id" } } };
    const secret: ToolSpec = { ...invoiceSpec(), references: { "/customer_ref": { kind: "customer", target: "session_token" } } };
    const tools = [
      defineTool<unknown, unknown, "customer">(one).implement(() => "done", { ledger, resolvers: { customer } }),
      defineTool<unknown, unknown, "customer" | "product">(two).implement(() => "done", { ledger, resolvers: { customer, product } }),
      defineTool<unknown, unknown, "customer">(secret).implement(() => "done", { ledger, resolvers: { customer } }),
      defineTool<unknown, unknown, "customer">(one).implement(() => "done", { ledger, resolvers: { customer }, timing: true }),
      defineTool<unknown, unknown, "customer">(one).implement((_args, context) => context.idempotencyKey, { ledger, resolvers: { customer } }),
      defineTool<unknown, unknown, "customer">(one).implement(() => "done", { ledger, resolvers: { customer }, redact: false, maxLedgerTextChars: 64 }),
      defineTool(invoiceSpec()).implement(() => "done", { ledger }),
    ];
    const bad = JSON.stringify({ ...validInvoice, currency: "euro", amount: "12,50" });
    for (const [index, tool] of tools.entries()) {
      for (const text of ODD) {
        await tool.call(JSON.stringify({ ...validInvoice, customer_ref: text }), { turn: `valid ${index} ${text}` });
        await tool.call(JSON.stringify({ ...validInvoice, customer_ref: text, amount: "12" }), { turn: `coerced ${text}`, finishReason: "stop" });
        await tool.call(JSON.stringify({ ...validInvoice, customer_ref: text }), { turn: text, finishReason: "tool_calls" });
      }
      await tool.call(bad, { turn: `repaired ${index}` });
      await tool.call(JSON.stringify(validInvoice), { turn: `repaired ${index}` });
      await tool.call(JSON.stringify({ ...validInvoice, customer_ref: "Acme" }), { turn: `question ${index}` });
      await tool.call(JSON.stringify({ ...validInvoice, customer_ref: "Acme BV" }), { turn: `question ${index}` });
      for (let i = 0; i < 10; i++) await tool.call("{not json", { turn: `refused ${index}` });
    }
    const resolved = entries.filter((entry) => (JSON.parse(JSON.stringify(entry)) as LedgerEntry).argumentsResolved === true);
    expect(entries.filter((entry) => entryLine(entry, 1 << 20).startsWith('{"v":3,')).length).toBeGreaterThan(5);
    expect(resolved.length).toBeGreaterThan(20);
    expect(entries.some((entry) => (JSON.parse(JSON.stringify(entry)) as LedgerEntry).attemptsOmitted! > 0)).toBe(true);
    expect(entries.some((entry) => entry.attempts.some((attempt) => (attempt.resolutions?.length ?? 0) > 1))).toBe(true);
    for (const entry of entries) expect(entryLine(entry, 1 << 20)).toBe(documentedLine(entry));
  });

  it("writes a resolution the resolve step did not make as JSON.stringify does, never as its fixed pieces", () => {
    const base = { path: "/customer_ref", text: "Acme BV", id: "cus_1", target: "customer_id" };
    const made = (resolution: object) => ({ raw: '{"customer_ref":"Acme BV"}', errors: [], coercions: [], resolutions: [resolution as typeof base] });
    // The plain one first, so the pieces for its field are kept when the odd ones come.
    const resolutions: object[] = [
      base,
      { ...base, note: "extra" },
      { text: base.text, path: base.path, target: base.target, id: base.id },
      { path: base.path, text: base.text, id: 7, target: base.target },
      { ...base, toJSON: () => ({ replaced: true }) },
      Object.assign(Object.create({ inherited: "x" }) as object, base),
      { path: base.path, text: base.text, id: base.id },
    ];
    for (const resolution of resolutions) {
      for (const last of [true, false]) {
        const attempts = last ? [made(resolution)] : [made(resolution), { raw: "{}", errors: [], coercions: [] }];
        const entry = new ChainRecord(undefined, "create_invoice", "t", 1_764_600_000_123, "ok", attempts, undefined);
        const line = entryLine(entry, 1 << 20);
        const written = JSON.parse(line) as LedgerEntry;
        expect(written).toEqual(JSON.parse(JSON.stringify(entry)));
        // Byte for byte: the resolution as JSON.stringify writes it (its own members, in its own
        // order), except that four strings in another order are written in the line's order (as before).
        const reordered = resolution === resolutions[2];
        expect(line).toContain(`,"resolutions":${JSON.stringify([reordered ? base : resolution])}}`);
      }
    }
  });

  it("writes a resolution of any of more fields than it keeps pieces for, byte for byte", () => {
    // 5,000 fields (one path per array index, as a field inside an array has): past the fields
    // kept (4,096), resolutions go through the general writer, and every line stays the documented one.
    for (let index = 0; index < 5000; index++) {
      const target = index % 2 ? "product_id" : "sku_id";
      const attempt = {
        raw: `{"items":[{"sku":"s${index}"}]}`,
        errors: [],
        coercions: [],
        resolutions: [{ path: `/items/${index}/sku`, text: `s${index}`, id: `p ${index}`, target }],
      };
      const entry = new ChainRecord(undefined, "t", `u${index}`, 1_764_600_000_123, "ok", [attempt], undefined);
      expect(entryLine(entry, 1 << 20)).toBe(documentedLine(entry));
    }
  });
});
