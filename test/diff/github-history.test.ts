// A real schema history: GitHub's REST API description as @octokit/openapi published it in
// 22.0.0 (installed as octokit-openapi-old) and in the version the project pins, compared by
// `toolguard diff` on two folders. Each class shows up in it; the README quotes this diff.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const require = createRequire(import.meta.url);
const spec = (pkg: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "generated/api.github.com.json");

let project: TempProject;
let report: {
  toolTeams: string;
  models: string;
  sets: {
    bump: string;
    unchanged: number;
    tools: {
      name: string;
      status: string;
      toolTeams: string;
      models: string;
      changes: { path: string; keyword: string; toolTeams: string; models: string; message: string }[];
    }[];
  }[];
};

beforeAll(async () => {
  project = new TempProject();
  for (const [folder, pkg] of [
    ["v22", "octokit-openapi-old"],
    ["v23", "@octokit/openapi"],
  ] as const) {
    mkdirSync(path.join(project.dir, folder));
    copyFileSync(spec(pkg), path.join(project.dir, folder, "api.github.com.json"));
  }
  const result = await project.run("diff", "v22", "v23", "--format", "json");
  expect(result.stderr).toBe("");
  report = JSON.parse(result.stdout);
});
afterAll(() => project.remove());

const tool = (name: string) => report.sets[0]?.tools.find((entry) => entry.name === name);
const change = (name: string, path: string) => tool(name)?.changes.find((entry) => entry.path === path);

describe("GitHub's REST API, @octokit/openapi 22.0.0 -> 23.0.2", () => {
  it("counts and the package bump", () => {
    const [set] = report.sets;
    const statuses: Record<string, number> = {};
    for (const entry of set?.tools ?? []) statuses[entry.status] = (statuses[entry.status] ?? 0) + 1;
    expect(statuses).toEqual({ added: 152, removed: 37, changed: 110 });
    // 960 since text/plain bodies whose schema is a string became tools: markdown/render-raw is one, in both versions.
    expect(set?.unchanged).toBe(960);
    expect(set?.bump).toBe("major");
    expect(report).toMatchObject({ toolTeams: "breaking", models: "breaking" });
  });

  it("breaking for models: a field became required", () => {
    expect(change("code-security_detach-configuration", "/body/selected_repository_ids")).toMatchObject({
      keyword: "required",
      models: "breaking",
      toolTeams: "possibly",
    });
  });

  it("breaking for both: an operation removed", () => {
    expect(tool("copilot_copilot-metrics-for-organization")).toMatchObject({ status: "removed", toolTeams: "breaking", models: "breaking" });
  });

  it("breaking for tool teams: a field removed from an open object, a required field made optional", () => {
    expect(change("apps_scope-token", "/body/permissions/team_discussions")).toMatchObject({ toolTeams: "breaking", models: "none" });
    expect(change("code-security_create-configuration", "/body/description")).toMatchObject({ keyword: "required", toolTeams: "breaking", models: "none" });
  });

  it("a string that may now also be an object: the model gains a shape, the implementation must handle it", () => {
    expect(change("issues_add-assignees", "/body/assignees/*")).toMatchObject({ keyword: "oneOf", toolTeams: "breaking" });
  });

  it("neither: a looser maxLength, a new optional field, a new operation", () => {
    expect(change("dependency-graph_create-repository-snapshot", "/body/sha")).toMatchObject({ keyword: "maxLength", toolTeams: "none", models: "none" });
    expect(change("issues_create", "/body/issue_field_values")).toMatchObject({ toolTeams: "none", models: "none" });
    expect(tool("agent-tasks_list-tasks")).toMatchObject({ status: "added", toolTeams: "none", models: "none" });
  });
});

describe("GitHub's pair, without over-caution (issue 30)", () => {
  it("the new ruleset rule kind cannot overlap the others: breaking for tool teams only", () => {
    const branch = tool("repos_create-repo-ruleset")?.changes.find((entry) => entry.message.includes("new union branch 18"));
    expect(branch).toMatchObject({ toolTeams: "breaking", models: "none" });
    expect(branch?.message).toContain('type: value "license_compliance_scanning" vs');
  });

  it("an id moved from required into a new oneOf says so, not just 'now optional'", () => {
    const moved = report.sets[0]?.tools.flatMap((entry) => entry.changes).filter((entry) => entry.message.includes("no longer required by the object itself"));
    expect(moved?.map((entry) => entry.path).sort()).toEqual(["/body/id", "/body/id", "/body/state"]);
    expect(moved?.some((entry) => /\/body\/id is now optional/.test(entry.message))).toBe(false);
  });
});
