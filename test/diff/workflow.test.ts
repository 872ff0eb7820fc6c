// The example GitHub Actions workflow and pre-commit hook, exercised: each `run:` step of
// examples/github-actions/toolguard.yml runs as written (bash, the workflow's environment) in a
// scratch clone whose pull request has two commits on top of main, with `npx toolguard`
// pointing at this checkout and a stand-in `gh` that keeps the pull request's comments in a
// file (its `--jq` filters run through the real jq). `npm ci` is the one step left out: the
// scratch repository has no package.json. The pre-commit hook runs through `git commit`.
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

/** The pull request's comments as the stand-in `gh` keeps them. */
interface Comment {
  id: number;
  body: string;
  user: { login: string };
}
const comments = (): Comment[] => JSON.parse(readFileSync(path.join(work, "comments.json"), "utf8"));
const setComments = (list: Comment[]): void => writeFileSync(path.join(work, "comments.json"), JSON.stringify(list));
const ghCalls = (): string[][] =>
  readFileSync(path.join(work, "gh-calls.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const summary = (): string => readFileSync(path.join(work, "summary.md"), "utf8");

/** A stand-in for `gh api`: lists, creates and edits the comments in comments.json. */
const FAKE_GH = `import { execFileSync } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_GH_LOG, JSON.stringify(args) + "\\n");
const state = process.env.FAKE_GH_STATE;
const comments = JSON.parse(readFileSync(state, "utf8"));
if (args[0] !== "api") { console.error("fake gh: only gh api"); process.exit(2); }
const at = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const method = at("--method") ?? "GET";
const route = args.slice(1).find((arg) => arg.startsWith("repos/"));
if (!route.startsWith("repos/acme/agents/issues/")) { console.error("fake gh: unexpected route " + route); process.exit(2); }
if (method === "GET") {
  process.stdout.write(execFileSync("jq", ["-r", at("--jq")], { input: JSON.stringify(comments) }));
  process.exit(0);
}
if (process.env.FAKE_GH_READONLY) { console.error("HTTP 403: Resource not accessible by integration"); process.exit(1); }
const body = readFileSync(at("-F").slice("body=@".length), "utf8");
if (method === "PATCH") comments.find((comment) => comment.id === Number(route.split("/").pop())).body = body;
else comments.push({ id: Math.max(100, ...comments.map((comment) => comment.id)) + 1, body, user: { login: "github-actions[bot]" } });
writeFileSync(state, JSON.stringify(comments));
`;

function shell(script: string, cwd: string, extra: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const env = {
    ...process.env,
    BASE_REF: "main",
    PR_NUMBER: "7",
    HEAD_REPO: "acme/agents",
    GITHUB_REPOSITORY: "acme/agents",
    GITHUB_STEP_SUMMARY: path.join(work, "summary.md"),
    FAKE_GH_STATE: path.join(work, "comments.json"),
    FAKE_GH_LOG: path.join(work, "gh-calls.jsonl"),
    GH_TOKEN: "not-a-token",
    PATH: `${path.join(work, "bin")}:${path.join(clone, "node_modules/.bin")}:${path.dirname(process.execPath)}:${process.env.PATH}`,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    GIT_CONFIG_GLOBAL: "/dev/null",
    ...extra,
  };
  const result = spawnSync("bash", ["-e", "-c", script], { cwd, env, encoding: "utf8" });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Every `run:` step but `npm ci`, in order, stopping at the first failure (as Actions does). */
function runWorkflow(extra: Record<string, string> = {}): { step: string; code: number; stdout: string; stderr: string }[] {
  const ran: { step: string; code: number; stdout: string; stderr: string }[] = [];
  writeFileSync(path.join(work, "summary.md"), "");
  writeFileSync(path.join(work, "gh-calls.jsonl"), "");
  // The job's own settings (not the `${{ }}` expressions, which the test stands in for).
  const jobEnv = Object.fromEntries(Object.entries(workflow.jobs.schemas.env ?? {}).filter(([, value]) => !String(value).includes("${{")));
  for (const step of workflow.jobs.schemas.steps) {
    if (!step.run || step.run.trim() === "npm ci") continue;
    const result = shell(step.run, clone, { ...jobEnv, ...extra });
    ran.push({ step: step.name ?? step.run, code: result.code, stdout: result.stdout, stderr: result.stderr });
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
  writeFileSync(path.join(clone, ".git/info/exclude"), "node_modules\ntoolguard-diff.md\ntoolguard-comment.md\n");
  mkdirSync(path.join(work, "bin"));
  writeFileSync(path.join(work, "gh.mjs"), FAKE_GH);
  writeFileSync(path.join(work, "bin/gh"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(work, "gh.mjs")}" "$@"\n`);
  chmodSync(path.join(work, "bin/gh"), 0o755);
  setComments([]);
});
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
    // One comment, created: it starts with the marker the next push finds it by.
    const [posted] = comments();
    expect(comments()).toHaveLength(1);
    const body = posted?.body ?? "";
    expect(body).toMatch(/^<!-- toolguard-diff -->\n## toolguard: what the schema changes mean/);
    expect(body).toContain("**1 tool differs** (1 changed;");
    expect(body).toMatch(/<summary>🔴 <code>create_invoice<\/code>: breaking for models \(2 changes\)<\/summary>/);
    // The full report the artifact step uploads: every change, as JSON.
    const full = JSON.parse(readFileSync(path.join(clone, "toolguard-diff.json"), "utf8")) as { sets: { tools: { name: string }[] }[] };
    expect(full.sets[0]?.tools.map((tool) => tool.name)).toEqual(["create_invoice"]);
    const upload = workflow.jobs.schemas.steps.find((step) => step.name === "The full report as the run's artifact") as
      | { uses?: string; with?: Record<string, unknown> }
      | undefined;
    expect(upload?.uses).toMatch(/^actions\/upload-artifact@[0-9a-f]{40}$/);
    expect(upload?.with).toMatchObject({ name: "toolguard-diff", path: "toolguard-diff.json" });
    expect(body).toContain("new required field /po\\_number: every call without it now fails");
    expect(summary()).toContain("## toolguard: what the schema changes mean");
    expect(ghCalls().map((call) => call.slice(0, 3))).toEqual([
      ["api", "--paginate", "repos/acme/agents/issues/7/comments"],
      ["api", "--method", "POST"],
    ]);
  });

  it("a later push edits that comment, not another workflow's comment by the same account", () => {
    const ours = comments()[0] as Comment;
    setComments([
      { id: 1, body: "Deploy preview ready", user: { login: "github-actions[bot]" } },
      { ...ours, body: `${ours.body}\nstale` },
      { id: 900, body: "Coverage: 91%", user: { login: "github-actions[bot]" } },
    ]);
    const ran = runWorkflow();
    expect(ran.find((step) => step.step === "Post it as the pull request's comment")?.code).toBe(0);
    const after = comments();
    expect(after.map((comment) => comment.id)).toEqual([1, ours.id, 900]);
    expect(after[0]?.body).toBe("Deploy preview ready");
    expect(after[2]?.body).toBe("Coverage: 91%");
    expect(after[1]?.body).toBe(ours.body);
    expect(ghCalls()[1]?.slice(0, 4)).toEqual(["api", "--method", "PATCH", `repos/acme/agents/issues/comments/${ours.id}`]);
  });

  it("a comment someone else wrote with the marker is never edited: the bot's own is", () => {
    const ours = comments().find((comment) => comment.user.login === "github-actions[bot]" && comment.body.startsWith("<!-- toolguard-diff -->")) as Comment;
    const planted = { id: 950, body: "<!-- toolguard-diff -->\nplanted by a contributor", user: { login: "mallory" } };
    setComments([{ ...ours, body: `${ours.body}\nstale` }, planted]);
    const ran = runWorkflow();
    expect(ran.find((step) => step.step === "Post it as the pull request's comment")?.code).toBe(0);
    const after = comments();
    expect(after.find((comment) => comment.id === 950)?.body).toBe(planted.body);
    expect(after.find((comment) => comment.id === ours.id)?.body).toBe(ours.body);
    expect(ghCalls()[1]?.slice(0, 4)).toEqual(["api", "--method", "PATCH", `repos/acme/agents/issues/comments/${ours.id}`]);
  });

  it("with only someone else's marked comment, the bot posts its own instead of editing theirs", () => {
    const planted = { id: 950, body: "<!-- toolguard-diff -->\nplanted by a contributor", user: { login: "mallory" } };
    setComments([planted]);
    runWorkflow();
    const after = comments();
    expect(after[0]).toEqual(planted);
    expect(after).toHaveLength(2);
    expect(after[1]?.user.login).toBe("github-actions[bot]");
    expect(after[1]?.body.startsWith("<!-- toolguard-diff -->")).toBe(true);
  });

  it("a pull request from a fork: no comment (its token cannot write), the diff in the job summary, a notice saying so", () => {
    setComments([]);
    const ran = runWorkflow({ HEAD_REPO: "someone/agents" });
    const post = ran.find((step) => step.step === "Post it as the pull request's comment");
    expect(post?.code).toBe(0);
    expect(post?.stdout).toContain("::notice title=toolguard::This pull request comes from a fork (someone/agents)");
    expect(ghCalls()).toEqual([]);
    expect(comments()).toEqual([]);
    expect(summary()).toMatch(/<summary>🔴 <code>create_invoice<\/code>: breaking for models \(2 changes\)<\/summary>/);
    // The gate still runs and decides.
    expect(ran.at(-1)).toMatchObject({ step: "Refuse changes that break valid model calls", code: 1 });
  });

  it("a read-only token on a pull request from the repository itself (Dependabot): a warning, the diff in the summary, the gate still runs", () => {
    const ran = runWorkflow({ FAKE_GH_READONLY: "1" });
    const post = ran.find((step) => step.step === "Post it as the pull request's comment");
    expect(post?.code).toBe(0);
    expect(post?.stdout).toContain("::warning title=toolguard::Could not post the schema diff as a comment");
    expect(post?.stderr).toContain("HTTP 403");
    expect(summary()).toContain("## toolguard: what the schema changes mean");
    expect(ran.at(-1)).toMatchObject({ step: "Refuse changes that break valid model calls", code: 1 });
  });

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
  });

  it("the pre-commit hook checks what is staged: stale staged output is refused though the working tree is current", async () => {
    cpSync(path.join(REPO, "examples/github-actions/pre-commit"), path.join(clone, ".git/hooks/pre-commit"));
    editInvoice(path.join(clone, "schemas"), (tool) => (tool.inputSchema.properties.memo.maxLength = 400));
    await toolguard(clone, "generate", "--no-cache");
    // The schema staged, its regenerated package not: the commit would carry stale output.
    git(clone, "add", "schemas");
    const refused = shell("git commit -qm 'looser memo'", clone);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/pre-commit: the staged generated output is stale/);
    expect(refused.stderr).toMatch(/stale: {3}generated\/tools\/create-invoice/);
  });

  it("the pre-commit hook accepts current staged output whatever is unstaged, and shows what the staged change means", () => {
    git(clone, "add", "generated");
    // An unstaged, unregenerated edit: not part of the commit, so it decides nothing.
    editInvoice(path.join(clone, "schemas"), (tool) => (tool.inputSchema.properties.memo.maxLength = 300));
    try {
      const accepted = shell("git commit -qm 'looser memo'", clone);
      expect(accepted.stderr).toMatch(/\/memo {2}\[tool teams -, models breaking\] {2}maxLength tightened from 500 to 400/);
      expect(accepted.stderr).not.toMatch(/to 300/);
      expect(accepted.code).toBe(0);
      expect(git(clone, "status", "--porcelain", "--", "schemas", "generated")).toBe(" M schemas/create-invoice.json\n");
    } finally {
      git(clone, "checkout", "--", "schemas");
    }
  });
});

describe("the example workflow's triggers, pins and concurrency", () => {
  const text = readFileSync(path.join(REPO, "examples/github-actions/toolguard.yml"), "utf8");
  const parsed = parse(text) as { on: Record<string, { paths?: string[] }>; concurrency?: { group?: string; "cancel-in-progress"?: boolean } };

  it("fires on schema, config, generated output, package.json and lock-file changes, never on pull_request_target", () => {
    expect(Object.keys(parsed.on)).toEqual(["pull_request"]);
    expect(parsed.on.pull_request?.paths).toEqual(
      expect.arrayContaining(["schemas/**", "generated/**", "toolguard.config.*", "package.json", "package-lock.json"]),
    );
    // Named only in a comment that says why not.
    expect(text.split("\n").filter((line) => line.includes("pull_request_target") && !line.trim().startsWith("#"))).toEqual([]);
  });

  it("pins every action by a full commit SHA, with its version in a comment", () => {
    const uses = [...text.matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThan(0);
    for (const [line, action, rest] of uses) {
      expect(action, line).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      expect(rest, line).toMatch(/#\s*v\d+(\.\d+)*\s*$/);
    }
  });

  it("runs one job per pull request at a time: a newer push cancels the older run", () => {
    expect(parsed.concurrency?.group).toContain("github.event.pull_request.number");
    expect(parsed.concurrency?.["cancel-in-progress"]).toBe(true);
  });
});
