// The report's fast read of a JSONL ledger (passing chains counted from their prefix) must give
// exactly the analysis that parsing every line gives, torn fragments and odd names included.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { simulateTraffic } from "../../bench/simulate/traffic.ts";
import { analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import { foldLedgerFile } from "../../generator/report/read-lines.ts";
import { scanLedger } from "../../templates/runtime/ledger/read.ts";
import { parseLine } from "../../templates/runtime/ledger/read-line.ts";

const dir = mkdtempSync(path.join(tmpdir(), "toolguard-read-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function both(file: string) {
  const slowScan = { entries: 0, torn: 0 };
  const slow = new ReportFold();
  for await (const entry of scanLedger(file, slowScan)) slow.add(entry);
  const fastScan = { entries: 0, torn: 0 };
  const fast = new ReportFold();
  await foldLedgerFile(file, fast, fastScan);
  return { slow: analyse(slow.finish()), fast: analyse(fast.finish()), slowScan, fastScan, malformed: [slow.malformed, fast.malformed] };
}

describe("foldLedgerFile", () => {
  it("gives the analysis a full parse of every line gives", async () => {
    const file = path.join(dir, "week.jsonl");
    await simulateTraffic({ ledger: file, turns: 3000, seed: 13 });
    // Odd lines a ledger may hold: a tool name with escapes and non-ASCII, a torn fragment glued
    // to an entry, a torn last line, a passing line with a raw text that mentions the slow keys.
    const lines = readFileSync(file, "utf8").split("\n");
    // The runtime writes a clean entry as version 3 (its raw text embedded); the odd version-1
    // lines below are made from the entry that line stands for.
    const clean = lines.find((text) => text.startsWith('{"v":3,')) as string;
    const entry = { ...(parseLine(clean) as unknown as Record<string, unknown>), v: 1 };
    const head = clean.slice(0, clean.indexOf(',"args":'));
    // Version-3 lines: a text holding the slow keys and an entry's start, an escaped tool name, a
    // fragment torn inside its text and glued to an entry.
    appendFileSync(file, `${head.replace(/"chain":"[^"]*"/, '"chain":"odd-v3-1"')},"args":{"failure":"x","question":1,"x":{"v":1}}}\n`);
    appendFileSync(file, `${head.replace(/"chain":"[^"]*","tool":"[^"]*"/, '"chain":"odd-v3-2","tool":"naïve \\"v3\\" tool"')},"args": [1.0, 1e2] }\n`);
    appendFileSync(file, `${head.replace(/"chain":"[^"]*"/, '"chain":"dead-v3"')},"args":{"a":{"b":1}${clean}\n`);
    appendFileSync(file, `${JSON.stringify({ ...entry, chain: "odd-1", tool: 'naïve "quoted" \u2028 tool' })}\n`);
    appendFileSync(file, `{"v":1,"chain":"dead","to${JSON.stringify({ ...entry, chain: "odd-2" })}\n`);
    appendFileSync(file, `${JSON.stringify({ ...entry, chain: "odd-3", attempts: [{ raw: '{"failure":"x","question":1}', errors: [], coercions: [] }] })}\n`);
    // Lines whose attempts are not what the runtime writes: malformed, whichever way they are read.
    for (const attempts of [
      "[null]",
      '[{"raw":"{}","errors":[],"coercions":[]},null]',
      '[{"raw":"{}","errors":"none","coercions":[]}]',
      '[{"raw":"{}","errors":[]},5,{"raw":"{}","errors":[]}]',
    ])
      appendFileSync(
        file,
        `${JSON.stringify({ ...entry, chain: `bad-${attempts.length}` }).replace(/"attempts":\[.*\],"repairs"/, `"attempts":${attempts},"repairs"`)}\n`,
      );
    // A torn last line (no newline) that ends in a `}` of its text: read whole, never counted from its prefix.
    appendFileSync(file, `${head.replace(/"chain":"[^"]*"/, '"chain":"torn-last"')},"args":{"a":{"b":1}`);
    const { slow, fast, slowScan, fastScan, malformed } = await both(file);
    expect(fast).toEqual(slow);
    expect(malformed).toEqual([4, 4]);
    expect(fastScan).toEqual(slowScan);
    expect(fastScan.torn).toBe(3);
    expect(fast.tools.length).toBeGreaterThan(0);
    expect(fast.tools.map((tool) => tool.tool)).toContain('naïve "quoted" \u2028 tool');
    expect(fast.tools.map((tool) => tool.tool)).toContain('naïve "v3" tool');
  });

  it("counts a version-3 line from its prefix, whatever its embedded text holds", async () => {
    const file = path.join(dir, "v3.jsonl");
    const head = (chain: string, tool = "t") =>
      `{"v":3,"chain":"${chain}","tool":${JSON.stringify(tool)},"turn":"a","startedAt":"2026-11-02T00:00:00.000Z","verdict":"ok","args":`;
    const texts = [
      '{"n":1.0}',
      ' {"failure":"structural","question":{},"attemptsOmitted":3,"finishReason":"length"} ',
      '[{"raw":"x","errors":[1]}]',
      '{"e":"\\u00e9"}',
    ];
    const resolved = '"resolved":{"path":"/who","text":"Acme \\"BV\\"","id":"cus_1","target":"who_id"},"args":{"who":"Acme \\"BV\\""}}';
    writeFileSync(
      file,
      `${texts.map((text, index) => `${head(`c${index}`, index === 3 ? "naïve" : "t")}${text}}`).join("\n")}\n${head("c9").slice(0, -7)}${resolved}\n`,
    );
    class Counting extends ReportFold {
      passing = 0;
      override addPassing(...args: Parameters<ReportFold["addPassing"]>): void {
        this.passing++;
        super.addPassing(...args);
      }
    }
    const fast = new Counting();
    const scan = { entries: 0, torn: 0 };
    await foldLedgerFile(file, fast, scan);
    expect(fast.passing).toBe(texts.length + 1);
    expect(scan).toEqual({ entries: texts.length + 1, torn: 0 });
    const { slow, fast: read } = await both(file);
    expect(read).toEqual(slow);
    expect(read.tools.map((tool) => [tool.tool, tool.calls]).sort()).toEqual([
      ["naïve", 1],
      ["t", 4],
    ]);
  });

  it("reads a missing file as empty", async () => {
    const fold = new ReportFold();
    await foldLedgerFile(path.join(dir, "none.jsonl"), fold, { entries: 0, torn: 0 });
    expect(fold.tools.size).toBe(0);
  });

  it("reads a line that spans chunks of the stream", async () => {
    const file = path.join(dir, "long.jsonl");
    const big = {
      v: 1,
      chain: "big",
      tool: "t",
      turn: "t",
      startedAt: "2026-11-02T00:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw: "x".repeat(3 << 20), errors: [], coercions: [] }],
      repairs: 0,
    };
    writeFileSync(file, `${JSON.stringify(big)}\n${JSON.stringify({ ...big, chain: "big2" })}\n`);
    const { slow, fast } = await both(file);
    expect(fast).toEqual(slow);
    expect(fast.tools[0]?.calls).toBe(2);
  });
});
