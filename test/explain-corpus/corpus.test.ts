// Issue 17's figures: on real third-party schemas (GitHub's REST API, the MCP reference
// servers), with realistic model mistakes, (1) how often the envelope carries the right JSON
// Pointer with the fix, and (2) how often a repairer that applies only what the messages literally
// say (literal-repairer.ts) gets the call accepted in one round; the same for raw ajv's messages
// on the same cases as the baseline. docs/errors.md explains the figures.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repairable, type CorpusCase, type Expected } from "../../generator/rehearse/mistake-case.ts";
import { casesFor, readGitHub, validArguments } from "./github-cases.ts";
import { repair, type EnvelopeError } from "../../generator/rehearse/literal-repairer.ts";
import { carries } from "../../generator/rehearse/mistakes/scoring.ts";
import { loadTool, type LoadedTool } from "../../generator/rehearse/load-tool.ts";
import { SERVERS, mcpCases, readServer } from "./mcp-cases.ts";

/** GitHub tools whose documented body is taken apart, every STRIDE-th with a valid example, plus these. */
const STRIDE = 7;
const GITHUB_TOOLS = [
  "pulls_create",
  "repos_create-webhook",
  "repos_create-org-ruleset",
  "issues_list-for-repo",
  "pulls_list",
  "actions_list-workflow-runs-for-repo",
  "repos_update-branch-protection",
  "issues_create",
  "checks_create",
  "repos_create-release",
  "repos_merge",
];

interface Figures {
  cases: number;
  carried: number;
  repairableCases: number;
  repaired: number;
}

interface Result {
  readonly entry: CorpusCase;
  readonly toolguard: { carried: boolean; repaired: boolean; errors: readonly EnvelopeError[] };
  readonly ajv: { carried: boolean; repaired: boolean };
}

const results: Result[] = [];
const tools = new Map<string, LoadedTool>();

async function run(entry: CorpusCase, tool: LoadedTool): Promise<void> {
  const errors = await tool.envelope(entry.args);
  if (errors === undefined) throw new Error(`${entry.id}: the guard accepts the mistake`);
  const ajvErrors = tool.ajvErrors(entry.args) ?? [];
  const accepted = async (fixed: unknown): Promise<boolean> => (await tool.envelope(fixed)) === undefined;
  results.push({
    entry,
    toolguard: { carried: carries(entry.expect, errors, entry.args), repaired: await accepted(repair(entry.args, errors)), errors },
    ajv: { carried: carries(entry.expect, ajvErrors, entry.args), repaired: await accepted(repair(entry.args, ajvErrors)) },
  });
}

function figures(pick: (result: Result) => { carried: boolean; repaired: boolean }, filter: (result: Result) => boolean = () => true): Figures {
  const chosen = results.filter(filter);
  const fixable = chosen.filter((result) => repairable(result.entry));
  return {
    cases: chosen.length,
    carried: chosen.filter((result) => pick(result).carried).length,
    repairableCases: fixable.length,
    repaired: fixable.filter((result) => pick(result).repaired).length,
  };
}

const share = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`;

beforeAll(async () => {
  const github = await readGitHub();
  const withBodies = github.filter((tool) => validArguments(tool) !== undefined).sort((a, b) => (a.name < b.name ? -1 : 1));
  const chosen = new Map<string, ToolDescription>();
  for (const [index, tool] of withBodies.entries()) if (index % STRIDE === 0) chosen.set(tool.name, tool);
  for (const name of GITHUB_TOOLS) {
    const tool = github.find((candidate) => candidate.name === name);
    if (tool) chosen.set(name, tool);
  }
  for (const tool of chosen.values()) {
    const valid = validArguments(tool);
    if (valid === undefined) continue;
    const loaded = await loadTool(tool);
    // A documented example the schema rejects is the spec's own mistake, not the model's.
    if ((await loaded.envelope(valid)) !== undefined) continue;
    tools.set(tool.name, loaded);
    for (const entry of casesFor(tool, valid)) if (!loaded.validate(entry.args)) await run(entry, loaded);
  }
  for (const entry of handPickedGitHub()) {
    const tool = tools.get(entry.tool) ?? (await loadTool(github.find((candidate) => candidate.name === entry.tool) as ToolDescription));
    await run(entry, tool);
  }
  for (const server of SERVERS) {
    const { source, tools: described } = readServer(server);
    const loaded = new Map<string, LoadedTool>();
    for (const tool of described) loaded.set(tool.name, await loadTool(tool));
    for (const entry of mcpCases(server, source)) await run(entry, loaded.get(entry.tool) as LoadedTool);
  }
  const ours = figures((result) => result.toolguard);
  const theirs = figures((result) => result.ajv);
  const lines = [
    `corpus: ${ours.cases} cases (${ours.repairableCases} with a literal fix)`,
    `toolguard: right pointer with the fix ${share(ours.carried, ours.cases)}; one-round literal repair ${share(ours.repaired, ours.repairableCases)}`,
    `raw ajv:   right pointer with the fix ${share(theirs.carried, theirs.cases)}; one-round literal repair ${share(theirs.repaired, theirs.repairableCases)}`,
  ];
  const classes = [...new Set(results.map((result) => result.entry.mistake))].sort();
  for (const mistake of classes) {
    const f = figures(
      (result) => result.toolguard,
      (result) => result.entry.mistake === mistake,
    );
    const a = figures(
      (result) => result.ajv,
      (result) => result.entry.mistake === mistake,
    );
    lines.push(`  ${mistake}: ${f.cases} cases, fix ${f.carried} (ajv ${a.carried}), repaired ${f.repaired}/${f.repairableCases} (ajv ${a.repaired})`);
  }
  console.log(lines.join("\n"));
  writeFileSync(
    path.join(tmpdir(), "toolguard-corpus-misses.txt"),
    results
      .filter((r) => !r.toolguard.carried || (repairable(r.entry) && !r.toolguard.repaired))
      .map((r) => `${r.entry.id} ${JSON.stringify(r.entry.expect)} <- ${JSON.stringify(r.toolguard.errors)}`)
      .join("\n"),
  );
}, 600_000);

describe("errors a model can act on, on real APIs", () => {
  it("has a few hundred cases from GitHub's spec and the three MCP servers", () => {
    expect(results.length).toBeGreaterThan(200);
    for (const source of ["@octokit/openapi", "server-filesystem", "server-memory", "server-everything"]) {
      expect(results.some((result) => result.entry.source.includes(source))).toBe(true);
    }
  });

  it("carries the right pointer with the fix in at least 95% of cases", () => {
    const ours = figures((result) => result.toolguard);
    expect(ours.carried / ours.cases).toBeGreaterThanOrEqual(0.95);
  });

  it("gets at least 90% of the repairable calls accepted after one literal repair", () => {
    const ours = figures((result) => result.toolguard);
    expect(ours.repaired / ours.repairableCases).toBeGreaterThanOrEqual(0.9);
  });

  it("carries the fix for every one of the issue's named examples (the hand-picked cases)", () => {
    const missed = results.filter((result) => result.entry.source.includes("hand-picked") && !result.toolguard.carried).map((result) => result.entry.id);
    expect(missed).toEqual([]);
  });

  it("does better than raw ajv's messages on both figures", () => {
    const ours = figures((result) => result.toolguard);
    const theirs = figures((result) => result.ajv);
    expect(ours.carried).toBeGreaterThan(theirs.carried);
    expect(ours.repaired).toBeGreaterThan(theirs.repaired);
  });
});

/** GitHub cases the generator above does not make: the named examples. */
function handPickedGitHub(): CorpusCase[] {
  const source = "npm @octokit/openapi (hand-picked)";
  const c = (tool: string, mistake: string, args: unknown, expect: Expected): CorpusCase => ({
    id: `${tool}: ${mistake} (hand-picked)`,
    source,
    tool,
    mistake,
    args,
    expect,
  });
  const repo = { owner: "octo-org", repo: "hello-world" };
  return [
    c(
      "pulls_create",
      "value held under another name",
      { ...repo, body: { title: "Fix", branch: "feature-x", base: "main" } },
      { op: "move", from: "/body/branch", to: "/body/head" },
    ),
    c(
      "repos_create-webhook",
      "field one level too high",
      { ...repo, body: { name: "web", url: "https://example.com/hook", config: { content_type: "json" } } },
      { op: "move", from: "/body/url", to: "/body/config/url" },
    ),
    c(
      "repos_create-webhook",
      "scalar union",
      { ...repo, body: { config: { url: "https://example.com/hook", insecure_ssl: false } } },
      { op: "mention", path: "/body/config/insecure_ssl", text: '"0"' },
    ),
    c(
      "repos_create-webhook",
      "double-quoted documented example",
      { ...repo, body: { config: { url: "https://example.com/hook", content_type: 1 } } },
      { op: "mention", path: "/body/config/content_type", text: 'for example "json"' },
    ),
    c("issues_list-for-repo", "far near miss of a parameter value", { ...repo, state: "opened" }, { op: "set", path: "/state", value: "open" }),
    c(
      "actions_list-workflow-runs-for-repo",
      "far near miss of a parameter value",
      { ...repo, status: "canceled" },
      { op: "set", path: "/status", value: "cancelled" },
    ),
    c(
      "repos_create-release",
      "value held under another name",
      { ...repo, body: { tag: "v1.0.0", name: "v1.0.0" } },
      { op: "move", from: "/body/tag", to: "/body/tag_name" },
    ),
    c(
      "repos_merge",
      "value held under another name",
      { ...repo, body: { head: "feature-x", branch: "main" } },
      { op: "move", from: "/body/branch", to: "/body/base" },
    ),
    c(
      "checks_create",
      "value held under another name",
      { ...repo, body: { name: "lint", sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e" } },
      { op: "move", from: "/body/sha", to: "/body/head_sha" },
    ),
    c(
      "checks_create",
      "value held under another name",
      { ...repo, body: { name: "lint", commit: "6dcb09b5b57875f334f61aebed695e2e4193db5e" } },
      { op: "move", from: "/body/commit", to: "/body/head_sha" },
    ),
    c(
      "repos_create-webhook",
      "field one level too high",
      { ...repo, body: { config: { url: "https://example.com/hook" }, content_type: "json" } },
      { op: "move", from: "/body/content_type", to: "/body/config/content_type" },
    ),
    c(
      "repos_create-webhook",
      "field one level too high",
      { ...repo, body: { config: { url: "https://example.com/hook" }, secret: "s3cret" } },
      { op: "move", from: "/body/secret", to: "/body/config/secret" },
    ),
    c(
      "repos_create-webhook",
      "field one level too high",
      { ...repo, body: { config: { url: "https://example.com/hook" }, insecure_ssl: "0" } },
      { op: "move", from: "/body/insecure_ssl", to: "/body/config/insecure_ssl" },
    ),
    c(
      "repos_create-webhook",
      "null for an optional field",
      { ...repo, body: { config: { url: "https://example.com/hook", insecure_ssl: null } } },
      { op: "remove", path: "/body/config/insecure_ssl" },
    ),
    c(
      "repos_create-org-ruleset",
      "union member without its discriminator",
      { org: "octo-org", body: { name: "r", enforcement: "active", rules: [{ parameters: { update_allows_fetch_and_merge: true } }] } },
      { op: "set", path: "/body/rules/0/type", value: "update" },
    ),
    c(
      "repos_create-org-ruleset",
      "union member without its discriminator",
      { org: "octo-org", body: { name: "r", enforcement: "active", rules: [{ parameters: { required_deployment_environments: ["production"] } }] } },
      { op: "set", path: "/body/rules/0/type", value: "required_deployments" },
    ),
    c(
      "repos_create-org-ruleset",
      "union member without its discriminator",
      {
        org: "octo-org",
        body: {
          name: "r",
          enforcement: "active",
          rules: [{ parameters: { required_status_checks: [{ context: "ci" }], strict_required_status_checks_policy: true } }],
        },
      },
      { op: "set", path: "/body/rules/0/type", value: "required_status_checks" },
    ),
    c(
      "repos_create-org-ruleset",
      "union member without its discriminator",
      {
        org: "octo-org",
        body: {
          name: "r",
          enforcement: "active",
          rules: [
            {
              parameters: {
                required_approving_review_count: 1,
                dismiss_stale_reviews_on_push: true,
                require_code_owner_review: false,
                require_last_push_approval: false,
                required_review_thread_resolution: false,
              },
            },
          ],
        },
      },
      { op: "set", path: "/body/rules/0/type", value: "pull_request" },
    ),
  ];
}
