// The example GitHub Actions workflow and pre-commit hook, exercised: each `run:` step of
// examples/github-actions/toolguard.yml runs as written (bash, the workflow's environment) in a
// scratch clone whose pull request has two commits on top of main, with `npx toolguard`
// pointing at this checkout and a stand-in `gh` that records the comment it would post.
// `npm ci` is the one step left out: the scratch repository has no package.json.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.ts";
import { git } from "../helpers/git.ts";
import { REPO } from "../helpers/temp-project.ts";

const workflow = parse(readFileSync(path.join(REPO, "examples/github-actions/toolguard.yml"), "utf8")) as {
  jobs: { schemas: { env: Record<string, string>; steps: { name?: string; run?: string }[] } };
};

let work: string;
let clone: string;

/** Runs the CLI for setting up (quietly; its output is not under test here). */
async function toolguard(cwd: string, ...argv: string[]): Promise<void> {
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    expect(await main(argv, cwd)).toBe(0);
  } finally {
    process.stdout.write = write;
  }
}

/** The parts of create-invoice.json the edits below change. */
interface InvoiceToolFile {
  description: string;
  inputSchema: { properties: Record<string, { type?: string }> & { memo: { maxLength?: number } }; required: string[] };
}

function editInvoice(schemas: string, edit: (tool: InvoiceToolFile) => void): void {
  const file = path.join(schemas, "create-invoice.json");
  const tool = JSON.parse(readFileSync(file, "utf8"));
  edit(tool);
  writeFileSync(file, JSON.stringify(tool, null, 2));
}

function shell(script: string, cwd: string): { code: number; stdout: string; stderr: string } {
  const env = {
    ...process.env,
    BASE_REF: "main",
    PR_NUMBER: "7",
    GH_TOKEN: "not-a-token",
    PATH: `${path.join(work, "bin")}:${path.join(clone, "node_modules/.bin")}:${path.dirname(process.execPath)}:${process.env.PATH}`,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const result = spawnSync("bash", ["-e", "-c", script], { cwd, env, encoding: "utf8" });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Every `run:` step but `npm ci`, in order, stopping at the first failure (as Actions does). */
function runWorkflow(): { step: string; code: number; stderr: string }[] {
  const ran: { step: string; code: number; stderr: string }[] = [];
  for (const step of workflow.jobs.schemas.steps) {
    if (!step.run || step.run.trim() === "npm ci") continue;
    const result = shell(step.run, clone);
    ran.push({ step: step.name ?? step.run, code: result.code, stderr: result.stderr });
    if (result.code !== 0) break;
  }
  return ran;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "toolguard-workflow-"));
  const origin = path.join(work, "origin");
  cpSync(path.join(REPO, "schemas"), path.join(origin, "schemas"), { recursive: true });
  git(origin, "init", "-q", "-b", "main");
  await toolguard(origin, "generate", "--no-cache");
  git(origin, "add", ".");
  git(origin, "commit", "-qm", "schemas and their package");
  execFileSync("git", ["clone", "-q", origin, path.join(work, "clone")]);
  clone = path.join(work, "clone");
  // `npx toolguard` runs this checkout's CLI; `gh` records what it would post.
  mkdirSync(path.join(clone, "node_modules/.bin"), { recursive: true });
  writeFileSync(path.join(clone, "node_modules/.bin/toolguard"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO, "generator/main.ts")}" "$@"\n`);
  chmodSync(path.join(clone, "node_modules/.bin/toolguard"), 0o755);
  writeFileSync(path.join(clone, ".git/info/exclude"), "node_modules\ntoolguard-diff.md\n");
  mkdirSync(path.join(work, "bin"));
  writeFileSync(path.join(work, "bin/gh"), `#!/bin/sh\nprintf '%s\\n' "$@" > "${work}/gh-args.txt"\ncp toolguard-diff.md "${work}/gh-body.md"\n`);
  chmodSync(path.join(work, "bin/gh"), 0o755);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the example workflow, on a pull request of two commits", () => {
  it("a pull request that breaks valid model calls: check passes, the comment is posted, the gate fails", async () => {
    git(clone, "checkout", "-qb", "feature");
    editInvoice(path.join(clone, "schemas"), (tool) => (tool.description = "Create a draft invoice."));
    await toolguard(clone, "generate", "--no-cache");
    git(clone, "commit", "-qam", "reword the invoice tool");
    editInvoice(path.join(clone, "schemas"), (tool) => {
      tool.inputSchema.properties.po_number = { type: "string" };
      tool.inputSchema.required.push("po_number");
    });
    await toolguard(clone, "generate", "--no-cache");
    git(clone, "commit", "-qam", "require a purchase order number");

    const ran = runWorkflow();
    expect(ran.map((step) => [step.step, step.code])).toEqual([
      ["Generated output is up to date", 0],
      ["What the schema changes mean", 0],
      ["Post it as the pull request's comment", 0],
      ["Refuse changes that break valid model calls", 1],
    ]);
    expect(ran.at(-1)?.stderr).toMatch(/--fail-on breaking-for-models: models: breaking/);
    expect(readFileSync(path.join(work, "gh-args.txt"), "utf8").split("\n")).toEqual([
      "pr",
      "comment",
      "7",
      "--body-file",
      "toolguard-diff.md",
      "--edit-last",
      "--create-if-none",
      "",
    ]);
    const body = readFileSync(path.join(work, "gh-body.md"), "utf8");
    expect(body).toMatch(/^## toolguard: what the schema changes mean/);
    expect(body).toContain("| `create_invoice` | changed (2) | 🟢 no | 🔴 breaking |");
    expect(body).toContain("new required field /po_number: every call without it now fails");
  }, 120_000);

  it("a pull request with stale generated output fails at the check", async () => {
    editInvoice(path.join(clone, "schemas"), (tool) => (tool.inputSchema.properties.memo.maxLength = 400));
    git(clone, "commit", "-qam", "schema changed, package not regenerated");
    try {
      const ran = runWorkflow();
      expect(ran.map((step) => [step.step, step.code])).toEqual([["Generated output is up to date", 1]]);
      expect(ran[0]?.stderr).toMatch(/stale: {3}generated\/tools\/create-invoice/);
    } finally {
      git(clone, "reset", "-q", "--hard", "HEAD~1");
    }
  }, 60_000);

  it("the pre-commit hook refuses a commit with stale output and shows the diff of one that is current", async () => {
    cpSync(path.join(REPO, "examples/github-actions/pre-commit"), path.join(clone, ".git/hooks/pre-commit"));
    editInvoice(path.join(clone, "schemas"), (tool) => (tool.inputSchema.properties.memo.maxLength = 400));
    const refused = shell("git commit -qam 'looser memo'", clone);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/pre-commit: the generated output is stale/);
    await toolguard(clone, "generate", "--no-cache");
    const accepted = shell("git commit -qam 'looser memo'", clone);
    expect(accepted.stderr).toMatch(/\/memo {2}\[tool teams -, models breaking\] {2}maxLength tightened from 500 to 400/);
    expect(accepted.code).toBe(0);
  }, 60_000);
});
