// `toolguard diff` end to end on scratch git repositories and folders: both sides read through
// the generator's reader, the three formats, the exit policy, the ledger replay, and bad input
// named by side.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../helpers/git.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

/** The invoice tool with GBP dropped, a new required `po_number`, and its description reworded. */
function changeInvoice(schemas: string): void {
  const moneyFile = path.join(schemas, "_shared/money.json");
  const money = JSON.parse(readFileSync(moneyFile, "utf8"));
  money.$defs.currency.enum = ["USD", "EUR"];
  writeFileSync(moneyFile, JSON.stringify(money, null, 2));
  const file = path.join(schemas, "create-invoice.json");
  const tool = JSON.parse(readFileSync(file, "utf8"));
  tool.description = "Create a draft invoice.";
  tool.inputSchema.properties.po_number = { type: "string" };
  tool.inputSchema.required.push("po_number");
  writeFileSync(file, JSON.stringify(tool, null, 2));
}

let project: TempProject;

beforeAll(() => {
  project = new TempProject();
  cpSync(path.join(REPO, "schemas"), path.join(project.dir, "schemas"), { recursive: true });
  git(project.dir, "init", "-q", "-b", "main");
  git(project.dir, "add", "schemas");
  git(project.dir, "commit", "-qm", "schemas");
  git(project.dir, "checkout", "-qb", "feature");
  changeInvoice(path.join(project.dir, "schemas"));
  git(project.dir, "commit", "-qam", "change the invoice");
});
afterAll(() => project.remove());

describe("toolguard diff on git refs", () => {
  it("classifies each change of two commits, as JSON", async () => {
    const result = await project.run("diff", "main", "feature", "--format", "json");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      base: expect.stringMatching(/^main \([0-9a-f]{7}\)$/),
      head: expect.stringMatching(/^feature/),
      toolTeams: "possibly",
      models: "breaking",
    });
    expect(report.sets).toHaveLength(1);
    const [set] = report.sets;
    expect(set).toMatchObject({ schemas: "schemas", bump: "major", unchanged: 3 });
    const [invoice] = set.tools;
    expect(invoice.name).toBe("create_invoice");
    const byPath = Object.fromEntries(
      invoice.changes.map((change: { path: string; keyword: string; models: string }) => [`${change.path} ${change.keyword}`, change.models]),
    );
    expect(byPath).toEqual({ " description": "none", "/currency enum": "breaking", "/po_number properties/po_number": "breaking" });
  });

  it("defaults to the merge base with the default branch against the working tree", async () => {
    writeFileSync(
      path.join(project.dir, "schemas/search-tickets.yaml"),
      readFileSync(path.join(project.dir, "schemas/search-tickets.yaml"), "utf8").replace("maxLength: 200", "maxLength: 100"),
    );
    try {
      const result = await project.run("diff");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^toolguard diff: merge-base of HEAD and main \([0-9a-f]{7}\) -> working tree/);
      expect(result.stdout).toMatch(/search_tickets: changed, breaking for models/);
      expect(result.stdout).toMatch(/\/query {2}\[tool teams -, models breaking\] {2}maxLength tightened from 200 to 100/);
      expect(result.stdout).toMatch(/create_invoice: changed/);
    } finally {
      git(project.dir, "checkout", "--", "schemas/search-tickets.yaml");
    }
  });

  it("--fail-on exits 1 only when its audience is affected", async () => {
    const models = await project.run("diff", "main", "feature", "--fail-on", "breaking-for-models");
    expect(models.code).toBe(1);
    expect(models.stderr).toMatch(/--fail-on breaking-for-models: models: breaking/);
    const none = await project.run("diff", "main", "main", "--fail-on", "breaking-for-models", "--fail-on", "breaking-for-tool-teams");
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/0 tools changed, 4 unchanged; package version bump: none/);
  });

  it("writes a pull-request comment: a summary table and collapsed details", async () => {
    const result = await project.run("diff", "main", "feature", "--format", "md");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("**1 tool differs** (1 changed;");
    expect(result.stdout).toContain(
      "<details><summary>🔴 <code>create_invoice</code>: possibly breaking for tool teams, breaking for models (3 changes)</summary>",
    );
    expect(result.stdout).toContain('| <code>/currency</code> | <code>enum</code> | possibly | breaking | "GBP" no longer allowed');
    // No generated package at the base to read a version from: the bump from 1.0.0, and what a 0.x package gets.
    expect(result.stdout).toContain("version bump **major \\(minor below 1\\.0\\.0\\)**");
  });

  it("replays the ledger's recent successful calls against the new schemas", async () => {
    const call = (chain: string, verdict: string, args: unknown, coercions: unknown[] = []) =>
      JSON.stringify({
        v: 1,
        chain,
        tool: "create_invoice",
        turn: chain,
        startedAt: "2026-01-01T00:00:00.000Z",
        verdict,
        attempts: [{ raw: JSON.stringify(args), errors: [], coercions, guardMs: 0.1 }],
        repairs: 0,
      });
    const args = (currency: string, amount: unknown = 10) => ({
      amount,
      currency,
      customer_ref: "Acme BV",
      line_items: [{ sku: "SKU-1", quantity: 1, unit_price: 10 }],
      po_number: "PO-1",
    });
    // c4's amount came as the string "10" and passed after the guard's recorded coercion: replayed as the guard validated it.
    const coerced = [{ path: "/amount", from: "10", to: 10, rule: "string->number" }];
    const ledger = [
      call("c1", "ok", args("EUR")),
      call("c2", "ok", args("GBP")),
      call("c3", "rejected", args("GBP")),
      call("c4", "repaired", args("USD", "10"), coerced),
    ].join("\n");
    project.write("ledger.jsonl", `${ledger}\n`);
    const result = await project.run("diff", "main", "feature", "--format", "json", "--ledger", "ledger.jsonl");
    expect(result.code).toBe(0);
    const replay = JSON.parse(result.stdout).sets[0].ledger.create_invoice;
    expect(replay).toMatchObject({ checked: 3, failing: 1, examples: [{ chain: "c2", errors: [expect.stringContaining("/currency enum")] }] });
    expect(replay.share).toBeCloseTo(1 / 3);
    const md = await project.run("diff", "main", "feature", "--format", "md", "--ledger", "ledger.jsonl");
    expect(md.stdout).toContain("(3 changes; recent calls that would fail: 1 of 3 (33.3%))</summary>");
  });

  it("reads a ledger that only other writers have written (its owner's file not there yet)", async () => {
    const ok = JSON.stringify({
      v: 1,
      chain: "w1",
      tool: "create_invoice",
      turn: "w1",
      startedAt: "2026-01-01T00:00:00.000Z",
      verdict: "ok",
      attempts: [
        {
          raw: JSON.stringify({
            amount: 10,
            currency: "GBP",
            customer_ref: "Acme BV",
            line_items: [{ sku: "SKU-1", quantity: 1, unit_price: 10 }],
            po_number: "PO-1",
          }),
          errors: [],
          coercions: [],
          guardMs: 0.1,
        },
      ],
      repairs: 0,
    });
    // A second process's live file (docs/ledger.md, "Files on disk"); `writers/ledger.jsonl` itself does not exist.
    project.write("writers/ledger.4242-1764608100123-3f9a0c.jsonl", `${ok}\n`);
    const result = await project.run("diff", "main", "feature", "--format", "json", "--ledger", "writers/ledger.jsonl");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).sets[0].ledger.create_invoice).toMatchObject({ checked: 1, failing: 1 });
    const none = await project.run("diff", "main", "feature", "--ledger", "nowhere/ledger.jsonl");
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("--ledger: no ledger at");
  });
});

describe("toolguard diff on folders, and bad input", () => {
  it("compares two folders without git", async () => {
    const folders = new TempProject();
    try {
      cpSync(path.join(REPO, "schemas"), path.join(folders.dir, "old"), { recursive: true });
      cpSync(path.join(REPO, "schemas"), path.join(folders.dir, "new"), { recursive: true });
      changeInvoice(path.join(folders.dir, "new"));
      const result = await folders.run("diff", "old", "new", "--format", "text");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/create_invoice: changed, possibly breaking for tool teams, breaking for models/);
    } finally {
      folders.remove();
    }
  });

  it("outside git, names that are not folders: exit 1, naming them", async () => {
    const folders = new TempProject();
    try {
      const result = await folders.run("diff", "old-schemas", "new-schemas");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/"old-schemas" and "new-schemas" are not folders, and .* is not inside a git repository for them to be git refs/);
    } finally {
      folders.remove();
    }
  });

  it("a ref that does not exist: exit 1, naming the side and the ref", async () => {
    const result = await project.run("diff", "no-such-branch");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/base side: the git ref "no-such-branch" names no commit/);
  });

  it("no merge base with the default branch: exit 1, asking for the base ref", async () => {
    git(project.dir, "checkout", "-q", "--orphan", "lonely");
    try {
      git(project.dir, "commit", "-qm", "unrelated history");
      const result = await project.run("diff");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/base side: HEAD and main have no merge base .*; name the base ref/);
    } finally {
      git(project.dir, "checkout", "-qf", "feature");
    }
  });

  it("a folder without schemas: exit 1, naming the side and the folder", async () => {
    project.write("empty/readme.txt", "nothing here");
    const result = await project.run("diff", "schemas", "empty");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot read the head side/);
    expect(result.stderr).toMatch(/empty: no tool schemas found/);
  });

  it("a schema broken on one side: exit 1, naming the side, the file and the place", async () => {
    git(project.dir, "checkout", "-qb", "broken");
    try {
      project.write("schemas/broken.json", {
        name: "broken",
        description: "Broken.",
        inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      });
      git(project.dir, "add", "schemas");
      git(project.dir, "commit", "-qm", "broken");
      const result = await project.run("diff", "main", "broken");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/cannot read the head side\.\nhead side \(broken \([0-9a-f]{7}\), schema folder schemas\):/);
      expect(result.stderr).toMatch(/ {2}broken\.json: dangling \$ref: nothing at #\/\$defs\/missing/);
      expect(result.stdout).toBe("");
    } finally {
      git(project.dir, "checkout", "-q", "feature");
    }
  });

  it("a folder beside a mistyped folder: exit 1, naming the side that is neither a folder nor a ref", async () => {
    const result = await project.run("diff", "schemas", "schemas-v2");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/head side: "schemas-v2" is neither a folder nor a git ref \(the other side, "schemas", is a folder\)/);
    const swapped = await project.run("diff", "schemas-v0", "schemas");
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toMatch(/base side: "schemas-v0" is neither a folder nor a git ref/);
  });

  it("usage errors exit 2", async () => {
    expect((await project.run("diff", "--format", "xml")).code).toBe(2);
    expect((await project.run("diff", "--fail-on", "everything")).code).toBe(2);
    expect((await project.run("diff", "a", "b", "c")).code).toBe(2);
    expect((await project.run("diff", "schemas", "main")).code).toBe(2);
    expect((await project.run("diff", "--recent", "0")).code).toBe(2);
  });
});
