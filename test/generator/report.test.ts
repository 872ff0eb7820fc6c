// `toolguard report` turns the ledger into failure rates per tool and rule per thousand calls
// and says what each pattern means for the schema.
import { afterEach, describe, expect, it } from "vitest";
import { analyse } from "../../generator/report/analysis.ts";
import { ReportFold } from "../../generator/report/fold.ts";
import type { LedgerAttempt, LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { TempProject } from "../helpers/temp-project.ts";

const pass: LedgerAttempt = { raw: "{}", errors: [], coercions: [], guardMs: 0.01 };
const fail = (...rules: string[]): LedgerAttempt => ({
  raw: "{}",
  failure: rules.includes("truncated") ? "syntactic" : "structural",
  errors: rules.map((rule, index) => ({ path: `/f${index}`, rule, message: "m" })),
  coercions: [],
  guardMs: 0.01,
});
let chains = 0;
const chain = (tool: string, verdict: LedgerEntry["verdict"], ...attempts: LedgerAttempt[]): LedgerEntry => ({
  v: 1,
  chain: `c${chains++}`,
  tool,
  turn: "t",
  startedAt: "2026-01-01T00:00:00.000Z",
  verdict,
  attempts,
  repairs: attempts.length - 1,
});

function ledger(): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  // create_invoice: 200 calls, 20 failed (100 per 1000): a schema defect, mostly enums.
  for (let i = 0; i < 170; i++) entries.push(chain("create_invoice", "ok", pass));
  for (let i = 0; i < 10; i++) entries.push(chain("create_invoice", "repaired", fail("enum", "enum", "type"), pass));
  for (let i = 0; i < 5; i++) entries.push(chain("create_invoice", "rejected", fail("enum"), fail("required")));
  // search: 1000 calls, 3 failed: healthy.
  for (let i = 0; i < 997; i++) entries.push(chain("search", "ok", pass));
  for (let i = 0; i < 3; i++) entries.push(chain("search", "rejected", fail("truncated")));
  return entries;
}

/** The report's analysis of the entries, folded as `toolguard report` folds a ledger. */
function analysed(entries: readonly LedgerEntry[]) {
  const fold = new ReportFold();
  for (const entry of entries) fold.add(entry);
  return analyse(fold.finish());
}

describe("failure report", () => {
  it("counts failed calls per tool and rule per thousand calls, with verdicts", () => {
    const [invoice, search] = analysed(ledger()).tools;
    expect(invoice).toMatchObject({
      tool: "create_invoice",
      calls: 200,
      failedCalls: 20,
      perThousand: 100,
      health: "schema defect",
      repairs: { repaired: 10, exhausted: 5 },
    });
    expect(invoice?.rules.map((rule) => [rule.rule, rule.failedCalls, rule.perThousand])).toEqual([
      ["enum", 15, 75],
      ["type", 10, 50],
      ["required", 5, 25],
    ]);
    // What each pattern means for the schema is the findings' job (test/report/diagnoses.test.ts).
    expect(search).toMatchObject({ tool: "search", calls: 1000, failedCalls: 3, perThousand: 3, health: "healthy" });
  });

  it("grades the middle band as watch", () => {
    const entries = [...Array.from({ length: 97 }, () => chain("t", "ok", pass)), ...Array.from({ length: 3 }, () => chain("t", "rejected", fail("type")))];
    expect(analysed(entries).tools[0]?.health).toBe("watch");
  });
});

describe("toolguard report", () => {
  let project: TempProject;
  afterEach(() => project.remove());

  it("reads a ledger file, skipping a torn last line", async () => {
    const lines = ledger()
      .map((entry) => JSON.stringify(entry))
      .join("\n");
    project = new TempProject({ ".toolguard/ledger.jsonl": `${lines}\n{"v":1,"tool":"create_inv` });
    const result = await project.run("report");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/create_invoice: 200 calls, 20 failed \(100 per 1000\) — schema defect/);
    expect(result.stdout).toMatch(/search: 1000 calls, 3 failed \(3 per 1000\) — healthy/);
    const json = await project.run("report", "--json");
    expect(JSON.parse(json.stdout).tools).toHaveLength(2);
  });

  it("exits 1 naming the file when there is no ledger", async () => {
    project = new TempProject();
    const result = await project.run("report", "nowhere.jsonl");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no ledger at .*nowhere\.jsonl/);
  });
});
