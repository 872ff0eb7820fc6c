// GitHub's whole REST API description through `toolguard generate`: the package it writes
// type-checks with tsc, loads, and guards real calls (a request example from the spec passes,
// a broken one is explained) before anything reaches the network.
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, TempProject } from "../helpers/temp-project.ts";
import { withoutAdvice } from "../helpers/advice-output.ts";

const require = createRequire(import.meta.url);
const spec = path.join(path.dirname(require.resolve("@octokit/openapi/package.json")), "generated/api.github.com.json");
let project: TempProject;
let summary = "";

beforeAll(async () => {
  project = new TempProject();
  cpSync(spec, path.join(project.dir, "schemas/api.github.com.json"));
  const result = await project.run("generate");
  expect(withoutAdvice(result.stderr)).toBe("");
  expect(result.code).toBe(0);
  summary = result.stdout;
}, 600_000);
afterAll(() => project.remove());

describe("GitHub's REST API, generated", () => {
  it("generates every operation but the octet-stream upload", () => {
    expect(summary).toMatch(/generated: 1222 tools/);
    expect(summary).toMatch(/skipped 1 operation /);
  });

  it("type-checks with tsc", () => {
    project.write("tsconfig.json", {
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2023", noEmit: true, skipLibCheck: false, types: [] },
      include: ["generated/**/*.d.ts"],
    });
    let output = "";
    try {
      execFileSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: project.dir, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  });

  it("guards issues/create: the spec's example passes, a broken one is explained", () => {
    // A plain Node process, as a consumer would load it (vitest's module runner is far slower
    // at importing 3,600 files).
    const script = `
const pkg = await import(${JSON.stringify(path.join(project.dir, "generated/index.js"))});
const received = [];
const create = pkg.issuesCreate.implement((args) => void received.push(args), { ledger: new pkg.MemorySink() });
const ok = await create.call(JSON.stringify({ owner: "octocat", repo: "hello-world", body: { title: "Found a bug", body: "I'm having a problem with this.", assignees: ["octocat"], milestone: 1, labels: ["bug"] } }), { turn: "t1" });
const bad = await create.call(JSON.stringify({ owner: "octocat", body: { labels: "bug" } }), { turn: "t2" });
console.log(JSON.stringify({ ok: ok.status, bad: bad.status, errors: bad.errors.map((e) => e.path + " " + e.rule), received: received.length, http: pkg.issuesCreate.http }));
`;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    expect(out.ok).toBe("ok");
    expect(out.bad).toBe("validation_failed");
    expect(out.errors).toEqual(["/body/labels type", "/body/title required", "/repo required"]);
    expect(out.received).toBe(1);
    expect(out.http).toMatchObject({ method: "POST", path: "/repos/{owner}/{repo}/issues" });
  });

  it("explains a ruleset's rules by the kind each names: a union of 21 $ref'd rule kinds", () => {
    const script = `
const pkg = await import(${JSON.stringify(path.join(project.dir, "generated/index.js"))});
const create = pkg.tools["repos_create-org-ruleset"].implement(() => "ok", { ledger: new pkg.MemorySink() });
const rules = [{ type: "deletion" }, { type: "Deletion" }, { parameters: {} }, { type: "pull_request", parameters: { required_approving_review_count: 1 } }];
const bad = await create.call(JSON.stringify({ org: "octo-org", body: { name: "r", enforcement: "active", rules } }), { turn: "t" });
console.log(JSON.stringify({ status: bad.status, errors: bad.errors }));
`;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as {
      status: string;
      errors: { path: string; rule: string; message: string }[];
    };
    expect(out.status).toBe("validation_failed");
    expect(out.errors.map((error) => `${error.path} ${error.rule}`)).toEqual([
      "/body/rules/1/type enum",
      "/body/rules/2/type required",
      "/body/rules/3/parameters/dismiss_stale_reviews_on_push required",
      "/body/rules/3/parameters/require_code_owner_review required",
      "/body/rules/3/parameters/require_last_push_approval required",
      "/body/rules/3/parameters/required_review_thread_resolution required",
    ]);
    expect(out.errors[0]?.message).toMatch(
      /^got string "Deletion"; "type" says what kind of object this is and must be one of \["creation", "update", "deletion", .*"copilot_code_review"\] — did you mean "deletion"\?$/,
    );
    // The definition's own hints: the parameter's description from the pull_request rule.
    expect(out.errors[2]?.message).toContain("New, reviewable commits pushed will dismiss previous pull request review approvals.");
  });
});
