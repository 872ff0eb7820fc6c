// Issues 25 and 26: a clean entry's line is version 3, its raw text embedded as the value of
// `args` byte for byte (ledger/clean-line.ts), when the text is one whole JSON text the guard's own
// parse read and holds no line break; the reader gives back the exact text (ledger/embedded-line.ts).
// Held here over generated texts (whitespace, escapes, unicode, numbers written as `1.0`, `1e2`),
// and every way a text must keep the escaped version-1 form: a line break, a lone surrogate, a
// redacted or cut text, a record the guard did not make, a chain that needed a repair.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { ChainRecord } from "../../templates/runtime/ledger/chain-record.ts";
import { NO_ERRORS_PARSED } from "../../templates/runtime/ledger/declared-keys.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { entryLine } from "../../templates/runtime/ledger/line.ts";
import { entryArguments, readLedger } from "../../templates/runtime/ledger/read.ts";
import { expectedBack, readBack } from "./read-back.ts";

const folder = mkdtempSync(path.join(tmpdir(), "toolguard-embedded-line-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Any object passes: the texts, not the schema, are what is tested. */
const anyObject = { type: "object" } as const;

function spec(name = "anything"): ToolSpec {
  const validate = new Ajv2020({ strict: false }).compile(anyObject) as unknown as StandaloneValidator;
  return { name, description: "", inputSchema: anyObject as unknown as ToolSpec["inputSchema"], validate, coercions: {}, hints: {}, references: {} };
}

function capture(): { entries: LedgerEntry[]; ledger: { append(entry: LedgerEntry): void; flush(): Promise<void>; close(): Promise<void> } } {
  const entries: LedgerEntry[] = [];
  return { entries, ledger: { append: (entry) => entries.push(entry), flush: async () => undefined, close: async () => undefined } };
}

/** Picks from a stream of choices, round and round: how a text is written, drawn by fast-check. */
class Choices {
  #at = 0;
  readonly picks: readonly number[];
  constructor(picks: readonly number[]) {
    this.picks = picks;
  }
  of<T>(options: readonly T[]): T {
    const pick = this.picks[this.#at++ % this.picks.length] as number;
    return options[pick % options.length] as T;
  }
}

/**
 * `value` as a JSON text written one of many ways: whitespace between tokens (with line breaks
 * only when `breaks`), characters escaped as `\uXXXX` or `\/` or not at all, integers as `1.0`,
 * `1e0`, `1E+0`. JSON.parse reads every form as `value`.
 */
function render(value: unknown, choose: Choices, breaks: boolean): string {
  const space = (): string => choose.of(breaks ? ["", "", " ", "\t", "\n", "\r\n  "] : ["", "", "", " ", "\t", "  "]);
  const text = (s: string): string => {
    let out = '"';
    for (const char of s) {
      const form = choose.of([0, 0, 0, 1, 2]);
      if (form === 1) out += Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");
      else if (form === 2 && char === "/") out += "\\/";
      else out += JSON.stringify(char).slice(1, -1);
    }
    return `${out}"`;
  };
  const write = (node: unknown): string => {
    if (typeof node === "string") return text(node);
    if (typeof node === "number") {
      // String(-0) is "0": the sign is written by hand so JSON.parse reads the same -0 back.
      const digits = Object.is(node, -0) ? "-0" : `${node}`;
      if (Number.isInteger(node) && Math.abs(node) < 1e15) return choose.of([digits, `${digits}.0`, `${digits}e0`, `${digits}E+0`, `${digits}.00e-0`]);
      return choose.of([JSON.stringify(node), node.toExponential()]);
    }
    if (Array.isArray(node)) return `[${node.map((item) => `${space()}${write(item)}${space()}`).join(",")}]`;
    if (node !== null && typeof node === "object")
      return `{${Object.entries(node)
        .map(([key, item]) => `${space()}${text(key)}${space()}:${space()}${write(item)}${space()}`)
        .join(",")}}`;
    return JSON.stringify(node);
  };
  return `${space()}${write(value)}${space()}`;
}

/** Strings with what JSON escapes, what it does not, and what UTF-8 cannot carry (a lone surrogate). */
const strings = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: fc.constantFrom('"', "\\", "/", "\u0000", "\u001f", "\u007f", "\u2028", "é", "中", "😀", "\ud800", "\t", "\n", "{", '{"v":1') }),
);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    strings,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(strings, tie("value"), { maxKeys: 4 }),
})).object;

/** What must hold of a passing call's line, whichever version it is. */
function holdsTo(entry: LedgerEntry, raw: string): void {
  const line = entryLine(entry, 1 << 20);
  expect(line.indexOf("\n")).toBe(line.length - 1);
  expect(() => JSON.parse(line)).not.toThrow();
  const embedded = !/[\n\r]/.test(raw) && !/\p{Cs}/u.test(raw);
  expect(line.slice(0, 7)).toBe(embedded ? '{"v":3,' : '{"v":1,');
  if (embedded) expect(line.endsWith(`,"verdict":"ok","args":${raw}}\n`)).toBe(true);
  const back = readBack(line);
  // The exact text, not a re-serialised one.
  expect(back.attempts[0]?.raw).toBe(raw);
  expect(back).toEqual(expectedBack(entry, line));
  expect(entryArguments(back)).toEqual(JSON.parse(raw));
}

describe("a clean entry's version-3 line", () => {
  it("embeds every text the guard passed as it was sent, and reads it back exactly", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(spec()).implement(() => "done", { ledger, redact: false });
    let passed = 0;
    let turn = 0;
    await fc.assert(
      fc.asyncProperty(values, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), fc.boolean(), async (value, picks, breaks) => {
        const raw = render(value, new Choices(picks), breaks);
        expect(JSON.parse(raw)).toEqual(value);
        entries.length = 0;
        // A turn of its own: a refused text's chain would take the next text as its repair.
        const outcome = await tool.call(raw, { turn: `t${turn++}` });
        // The guard refuses what JSON.parse reads lossily (a repeated key, an escaped lone surrogate, a long integer).
        if (outcome.status !== "ok") return;
        passed++;
        expect(entries).toHaveLength(1);
        holdsTo(entries[0] as LedgerEntry, raw);
      }),
      { numRuns: 400 },
    );
    expect(passed).toBeGreaterThan(200);
  });

  it("is fewer bytes than the escaped line, and a line a JSON parser reads whole", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(spec()).implement(() => "done", { ledger, redact: false });
    const raw = JSON.stringify({ owner: "octocat", repo: "hello-world", body: { title: "Found a bug", labels: ["bug", { name: "triage" }] } });
    await tool.call(raw, { turn: "t" });
    const line = entryLine(entries[0] as LedgerEntry, 1 << 20);
    const value = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["v", "chain", "tool", "turn", "startedAt", "verdict", "args"]);
    expect(value["args"]).toEqual(JSON.parse(raw));
    // The escaped line of the same entry, with the raw text and the members a clean entry implies in their place.
    const { chain, tool: name, turn, startedAt, verdict } = value;
    const escaped = JSON.stringify({ v: 1, chain, tool: name, turn, startedAt, verdict, attempts: [{ raw, errors: [], coercions: [] }], repairs: 0 });
    const members = `"attempts":[{"raw":${JSON.stringify(raw)},"errors":[],"coercions":[]}],"repairs":0`;
    expect(line).toBe(`${escaped.replace('{"v":1,', '{"v":3,').replace(members, () => `"args":${raw}`)}\n`);
    expect(Buffer.byteLength(line)).toBeLessThan(Buffer.byteLength(escaped) - 60);
  });

  it("takes a value an SDK parsed as its JSON text", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(spec()).implement(() => "done", { ledger });
    await tool.call({ title: "parsed", n: 1 }, { turn: "t" });
    const line = entryLine(entries[0] as LedgerEntry, 1 << 20);
    expect(line).toContain('"args":{"title":"parsed","n":1}}');
    holdsTo(entries[0] as LedgerEntry, '{"title":"parsed","n":1}');
  });
});

describe("a clean entry that keeps the escaped version-1 line", () => {
  it("holds a line break", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(spec()).implement(() => "done", { ledger, redact: false });
    const raws = ['{\n  "title": "pretty"\n}', '{"title":"cr"}\r', '{"title":\r\n"crlf"}'];
    for (const [index, raw] of raws.entries()) expect((await tool.call(raw, { turn: `t${index}` })).status).toBe("ok");
    expect(entries).toHaveLength(raws.length);
    for (const [index, entry] of entries.entries()) {
      expect(entryLine(entry, 1 << 20).startsWith('{"v":1,')).toBe(true);
      holdsTo(entry, raws[index] as string);
    }
  });

  it("holds a lone surrogate, which UTF-8 cannot carry (the guard refuses one; a record with its mark is written whole)", () => {
    const at = Date.parse("2026-12-01T10:00:00.000Z");
    const record = (raw: string) => new ChainRecord(undefined, "marked", "t", at, "ok", [{ raw, errors: NO_ERRORS_PARSED, coercions: [] }], undefined);
    // The mark alone embeds a text: the writer trusts it, as the guard sets it only on a text its parse read whole.
    const marked = entryLine(record('{"n":1}'), 1 << 20);
    expect(marked.startsWith('{"v":3,"chain":"')).toBe(true);
    expect(marked.endsWith('"tool":"marked","turn":"t","startedAt":"2026-12-01T10:00:00.000Z","verdict":"ok","args":{"n":1}}\n')).toBe(true);
    for (const raw of ['{"s":"\ud800"}', '{"s":"\udfff tail"}', '{"s":"😀\ud83d"}']) {
      const line = entryLine(record(raw), 1 << 20);
      expect(line.startsWith('{"v":1,')).toBe(true);
      expect(readBack(line).attempts[0]?.raw).toBe(raw);
    }
  });

  it("is redacted, or cut to the text cap", async () => {
    const { entries, ledger } = capture();
    await defineTool(spec())
      .implement(() => "done", { ledger })
      .call(JSON.stringify({ title: "login", password: "hunter2" }), { turn: "a" });
    await defineTool(spec())
      .implement(() => "done", { ledger, maxLedgerTextChars: 64 })
      .call(JSON.stringify({ title: "x".repeat(100) }), { turn: "b" });
    const [redacted, cut] = entries.map((entry) => entryLine(entry, 1 << 20)) as [string, string];
    expect(redacted.startsWith('{"v":1,')).toBe(true);
    expect(redacted).not.toContain("hunter2");
    expect(readBack(redacted).attempts[0]).toMatchObject({ redacted: 1 });
    expect(cut.startsWith('{"v":1,')).toBe(true);
    expect(readBack(cut).attempts[0]).toMatchObject({ raw: `{"title":"${"x".repeat(54)}`, rawLength: 112 });
  });

  it("was not made by the guard's parse: a record of the caller's own, whatever its text", () => {
    for (const raw of ['{"n":1}', "not json", '{"n":1} trailing', 'Here you go: {"n":1}']) {
      const attempt = { raw, errors: [], coercions: [] };
      const entry = new ChainRecord(undefined, "own", "t", Date.parse("2026-12-01T10:00:00.000Z"), "ok", [attempt], undefined);
      const line = entryLine(entry, 1 << 20);
      expect(line.startsWith('{"v":1,')).toBe(true);
      expect(readBack(line).attempts[0]?.raw).toBe(raw);
    }
  });

  it("took a repair: a text in prose failed, its repair passed, the chain's line holds both", async () => {
    const { entries, ledger } = capture();
    const tool = defineTool(spec()).implement(() => "done", { ledger });
    const prose = 'Sure! Here are the arguments: {"title":"x"}';
    expect((await tool.call(prose, { turn: "t" })).status).not.toBe("ok");
    expect((await tool.call('{"title":"x"}', { turn: "t" })).status).toBe("ok");
    const last = entries.at(-1) as LedgerEntry;
    const line = entryLine(last, 1 << 20);
    expect(line.startsWith('{"v":1,')).toBe(true);
    expect(readBack(line).attempts.map((attempt) => attempt.raw)).toEqual([prose, '{"title":"x"}']);
    expect(readBack(line)).toEqual(expectedBack(last, line));
  });
});

describe("a ledger file of every version", () => {
  it("is read back through the sink, each entry's text exactly as sent", async () => {
    const file = path.join(folder, "mixed.jsonl");
    const sink = new JsonlFileSink({ path: file, sync: false });
    const tool = defineTool(spec()).implement(() => "done", { ledger: sink, redact: false });
    const raws = ['{"a":1.0}', '{\n"b":2}', ' {"c":"\\u00e9\\/"} ', '{"d":{"v":1,"args":[]}}', '{"e":"\u2028😀"}'];
    for (const [index, raw] of raws.entries()) await tool.call(raw, { turn: `t${index}` });
    await tool.call("{oops", { turn: "r" });
    await tool.call('{"f":1e2}', { turn: "r" });
    await sink.close();
    const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
    expect(lines.map((line) => line.slice(0, 6))).toEqual(['{"v":3', '{"v":1', '{"v":3', '{"v":3', '{"v":3', '{"v":1', '{"v":1']);
    const read = await readLedger(file);
    expect(read.map((entry) => entry.attempts.at(-1)?.raw)).toEqual([...raws, "{oops", '{"f":1e2}']);
    expect(read.map((entry) => entry.repairs)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(read.map(entryArguments)).toEqual([{ a: 1 }, { b: 2 }, { c: "é/" }, { d: { v: 1, args: [] } }, { e: "\u2028😀" }, undefined, { f: 100 }]);
  });
});
