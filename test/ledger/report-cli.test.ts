// `toolguard report` reads the ledger as a stream and says how many torn fragments it skipped.
import { afterEach, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

const entry = (turn: string, failed: boolean) => ({
  v: 1,
  chain: `c-${turn}`,
  tool: "t",
  turn,
  startedAt: "2026-01-01T00:00:00.000Z",
  verdict: failed ? "rejected" : "ok",
  attempts: [
    { raw: "{}", errors: failed ? [{ path: "/a", rule: "type", message: "m" }] : [], coercions: [], guardMs: 0, ...(failed ? { failure: "structural" } : {}) },
  ],
  repairs: 0,
});

describe("toolguard report", () => {
  it("reads every writer's files of the ledger (issue 26): the owner's path, another writer's live and closed files, the older layout's", async () => {
    project = new TempProject();
    const writer = "4242-1764608100123-abcdef";
    project.write("ledger.jsonl.1", `${JSON.stringify(entry("old", false))}\n`);
    project.write(`ledger.${writer}.1.jsonl`, `${JSON.stringify(entry("closed", true))}\n`);
    project.write(`ledger.${writer}.jsonl`, `${JSON.stringify(entry("live", false))}\n`);
    project.write("ledger.jsonl", `${JSON.stringify(entry("owner", false))}\n`);
    project.write("ledger.jsonl.owner-1", writer);
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    const [report] = (JSON.parse(result.stdout) as { tools: { tool: string; calls: number; failedCalls: number }[] }).tools;
    expect(report).toMatchObject({ tool: "t", calls: 4, failedCalls: 1 });
  });

  it("reads a ledger whose configured path holds nothing yet: only other writers' files", async () => {
    project = new TempProject();
    project.write("ledger.4242-1764608100123-abcdef.jsonl", `${JSON.stringify(entry("live", true))}\n`);
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    const [report] = (JSON.parse(result.stdout) as { tools: { tool: string; calls: number; failedCalls: number }[] }).tools;
    expect(report).toMatchObject({ tool: "t", calls: 1, failedCalls: 1 });
    expect((await project.run("report", "missing.jsonl")).code).toBe(1);
  });

  it("reports a ledger with a torn fragment and an entry glued to it, naming the skipped fragment", async () => {
    project = new TempProject();
    project.write("ledger.jsonl", `${JSON.stringify(entry("a", false))}\n{"v":1,"chain":"dead","to${JSON.stringify(entry("b", true))}\n`);
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/skipped 1 torn fragment in .*ledger\.jsonl/);
    const [report] = (JSON.parse(result.stdout) as { tools: { tool: string; calls: number; failedCalls: number }[] }).tools;
    expect(report).toMatchObject({ tool: "t", calls: 2, failedCalls: 1 });
  });

  it("counts the marks of a shared chain store's outage (issue 28), and keeps them out of the tools' calls", async () => {
    project = new TempProject();
    const { chainStoreMark } = await import("../../templates/runtime/ledger/store-mark.ts");
    const mark = { ...chainStoreMark("t", "a", "no answer within 2000 ms"), chain: "m-1" };
    project.write("ledger.jsonl", [entry("a", true), mark, { ...mark, chain: "m-2" }, entry("b", false)].map((one) => `${JSON.stringify(one)}\n`).join(""));
    const result = await project.run("report", "ledger.jsonl", "--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /2 calls were bounded by their process alone: the shared chain store was unavailable \(ledger entries with verdict chain_store_unavailable\)/,
    );
    expect(JSON.parse(result.stdout).tools).toEqual([expect.objectContaining({ tool: "t", calls: 2, failedCalls: 1 })]);
  });

  it("--since: counts only chains started in the window, reads the rotated files too, and says when the ledger reaches back less far than asked", async () => {
    project = new TempProject();
    const at = (hoursAgo: number): string => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    const dated = (turn: string, failed: boolean, hoursAgo: number) => ({ ...entry(turn, failed), startedAt: at(hoursAgo) });
    // The oldest entry (5 hours ago) is in the rotated file; the current file holds the last two hours.
    project.write("ledger.jsonl.1", `${JSON.stringify(dated("old", true, 5))}\n`);
    project.write("ledger.jsonl", `${JSON.stringify(dated("recent", false, 2))}\n${JSON.stringify(dated("now", true, 0))}\n`);
    const day = await project.run("report", "ledger.jsonl", "--json", "--since", "24h");
    expect(day.code).toBe(0);
    expect(day.stderr).toMatch(/window is shorter than asked: the ledger reaches back only to .*, 5\.0 hours of the 24\.0 hours asked/);
    expect(JSON.parse(day.stdout).tools).toMatchObject([{ tool: "t", calls: 3, failedCalls: 2 }]);
    const three = await project.run("report", "ledger.jsonl", "--json", "--since", "3h");
    expect(three.stderr).toBe("");
    expect(JSON.parse(three.stdout).tools).toMatchObject([{ tool: "t", calls: 2, failedCalls: 1 }]);
    const bad = await project.run("report", "ledger.jsonl", "--since", "yesterday");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since takes a duration such as 90m, 24h or 7d, got "yesterday"/);
  });

  // Issue 27, finding 7: a hostile ledger is reported, not obeyed and not fatal.
  it("prints no terminal escape or control character from the ledger, and skips and counts malformed lines", async () => {
    project = new TempProject();
    const hostile = { ...entry("x", true), tool: "evil\u001b]0;pwned\u0007\u001b[2J\u202eloot\r\nfake: 0 calls" };
    hostile.attempts[0]!.errors = [{ path: "/a", rule: "type\u001b[31m", message: "m" }];
    const malformed = [
      { ...entry("m1", true), attempts: "not an array" },
      { ...entry("m2", true), attempts: [null] },
      { ...entry("m3", true), attempts: [{ failure: 7, errors: [] }] },
      { ...entry("m4", true), attempts: [{ failure: "structural", errors: [{ rule: 1 }] }] },
      { ...entry("m5", true), attempts: [{ failure: "structural", errors: "type" }] },
      { ...entry("m6", false), tool: 42 },
      { ...entry("m7", false), chain: null },
      { ...entry("m8", false), verdict: ["ok"] },
    ];
    const lines = [entry("a", false), ...malformed, hostile, entry("b", true)].map((line) => JSON.stringify(line));
    project.write("ledger.jsonl", `${lines.join("\n")}\n`);
    const result = await project.run("report", "ledger.jsonl");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/skipped 8 entries in .*ledger\.jsonl whose fields have the wrong type/);
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(result.stdout).toContain("evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}loot\\u{d}\\u{a}fake: 0 calls");
    expect(result.stdout).toContain("t: 2 calls, 1 failed");
    expect(result.stdout.split("\n").filter((line) => /^\S.*: \d+ calls?,/.test(line))).toHaveLength(2);
  });
});
