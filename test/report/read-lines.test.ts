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
    const line = readFileSync(file, "utf8")
      .split("\n")
      .find((text) => text.includes('"verdict":"ok"')) as string;
    const entry = JSON.parse(line) as Record<string, unknown>;
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
    appendFileSync(
      file,
      '{"v":1,"chain":"torn-last","tool":"create_invoice","turn":"t","startedAt":"2026-11-02T00:00:00.000Z","verdict":"ok","attempts":[{"raw":"{}"}',
    );
    const { slow, fast, slowScan, fastScan, malformed } = await both(file);
    expect(fast).toEqual(slow);
    expect(malformed).toEqual([4, 4]);
    expect(fastScan).toEqual(slowScan);
    expect(fastScan.torn).toBe(2);
    expect(fast.tools.length).toBeGreaterThan(0);
    expect(fast.tools.map((tool) => tool.tool)).toContain('naïve "quoted" \u2028 tool');
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
