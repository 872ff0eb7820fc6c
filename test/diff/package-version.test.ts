// `version: { from: "schema-diff", base }`: the generated package.json's version is the one at
// `base`, raised by the bump the schema diff calls for; `check` agrees with `generate`; and the
// bump rules themselves.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyBump, bumpFor } from "../../generator/diff/semver.ts";
import type { ToolDiff } from "../../generator/diff/change.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";
import { git } from "../helpers/git.ts";

describe("applyBump", () => {
  it.each([
    ["1.4.2", "major", "2.0.0"],
    ["1.4.2", "minor", "1.5.0"],
    ["1.4.2", "patch", "1.4.3"],
    ["1.4.2", "none", "1.4.2"],
    ["0.3.1", "major", "0.4.0"],
    ["0.3.1", "minor", "0.3.2"],
    ["0.3.1", "patch", "0.3.2"],
  ] as const)("%s + %s = %s", (version, bump, expected) => {
    expect(applyBump(version, bump)).toBe(expected);
  });

  it("bumpFor: tool teams -> major, what passes -> minor, wording -> patch", () => {
    const diff = (
      toolTeams: ToolDiff["toolTeams"],
      models: ToolDiff["models"],
      kind: "annotation" | "schema",
      status: ToolDiff["status"] = "changed",
    ): ToolDiff => ({
      name: "t",
      status,
      toolTeams,
      models,
      changes: [{ path: "", schemaPointer: "", keyword: "", kind, toolTeams, models, message: "" }],
    });
    expect(bumpFor([diff("possibly", "none", "schema")])).toBe("major");
    expect(bumpFor([diff("none", "breaking", "schema")])).toBe("minor");
    expect(bumpFor([diff("none", "none", "schema")])).toBe("minor");
    expect(bumpFor([diff("none", "none", "annotation", "added")])).toBe("minor");
    expect(bumpFor([diff("none", "none", "annotation")])).toBe("patch");
    expect(bumpFor([diff("none", "none", "annotation", "unchanged")])).toBe("none");
  });
});

/** The parts of search-tickets.json the edits below change. */
interface SearchToolFile {
  description: string;
  inputSchema: { properties: { query: { maxLength?: number }; limit?: unknown } };
}

describe("generate with a version derived from the schema diff", () => {
  let project: TempProject;
  const version = () => JSON.parse(readFileSync(path.join(project.dir, "generated/package.json"), "utf8")).version;
  const editTool = (edit: (tool: SearchToolFile) => void) => {
    const file = path.join(project.dir, "schemas/search-tickets.json");
    const tool = JSON.parse(readFileSync(file, "utf8"));
    edit(tool);
    writeFileSync(file, JSON.stringify(tool, null, 2));
  };

  beforeAll(async () => {
    project = new TempProject({
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", version: { from: "schema-diff", base: "main", initial: "1.0.0" } }] },
    });
    cpSync(path.join(REPO, "schemas/schedule-meeting.json"), path.join(project.dir, "schemas/schedule-meeting.json"));
    project.write("schemas/search-tickets.json", {
      name: "search_tickets",
      description: "Search tickets.",
      inputSchema: { type: "object", properties: { query: { type: "string", maxLength: 200 }, limit: { type: "integer" } }, required: ["query"] },
    });
    git(project.dir, "init", "-q", "-b", "main");
    git(project.dir, "add", ".");
    git(project.dir, "commit", "-qm", "schemas");
    const first = await project.run("generate", "--no-cache");
    expect(first.stderr).toBe("");
    git(project.dir, "add", ".");
    git(project.dir, "commit", "-qm", "generated");
    git(project.dir, "checkout", "-qb", "feature");
  });
  afterAll(() => project.remove());

  it("a package new at the base starts at `initial`", () => {
    git(project.dir, "checkout", "-q", "main");
    expect(version()).toBe("1.0.0");
    git(project.dir, "checkout", "-q", "feature");
  });

  it.each([
    ["wording only: patch", (tool: SearchToolFile) => (tool.description = "Search the ticket archive."), "1.0.1"],
    ["a tighter bound (models): minor", (tool: SearchToolFile) => (tool.inputSchema.properties.query.maxLength = 100), "1.1.0"],
    ["a field removed (tool teams): major", (tool: SearchToolFile) => delete tool.inputSchema.properties.limit, "2.0.0"],
  ])("%s", async (_what, edit, expected) => {
    try {
      editTool(edit);
      const generated = await project.run("generate");
      expect(generated.stderr).toBe("");
      expect(version()).toBe(expected);
      // Deterministic: the same inputs, the same version; check agrees with generate.
      expect((await project.run("check")).code).toBe(0);
    } finally {
      git(project.dir, "checkout", "--", "schemas");
      await project.run("generate");
    }
    expect(version()).toBe("1.0.0");
  });

  it("a base that names no commit is a usage error", async () => {
    project.write("toolguard.config.json", { sets: [{ schemas: "schemas", out: "generated", version: { from: "schema-diff", base: "no-such-ref" } }] });
    try {
      const result = await project.run("generate");
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/base "no-such-ref" names no commit/);
    } finally {
      git(project.dir, "checkout", "--", "toolguard.config.json");
    }
  });
});

describe("below 1.0.0, `diff` names the bump `generate` applies", () => {
  let project: TempProject;
  const version = () => JSON.parse(readFileSync(path.join(project.dir, "generated/package.json"), "utf8")).version;

  beforeAll(async () => {
    project = new TempProject({
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", version: { from: "schema-diff", base: "main", initial: "0.3.0" } }] },
    });
    project.write("schemas/search-tickets.json", {
      name: "search_tickets",
      description: "Search tickets.",
      inputSchema: { type: "object", properties: { query: { type: "string", maxLength: 200 }, limit: { type: "integer" } }, required: ["query"] },
    });
    git(project.dir, "init", "-q", "-b", "main");
    git(project.dir, "add", ".");
    git(project.dir, "commit", "-qm", "schemas");
    expect((await project.run("generate", "--no-cache")).code).toBe(0);
    git(project.dir, "add", ".");
    git(project.dir, "commit", "-qm", "package");
    expect(version()).toBe("0.3.0");
  });
  afterAll(() => project.remove());

  it.each([
    ["wording only", "patch", "0.3.1", (tool: SearchToolFile) => (tool.description = "Search the ticket archive.")],
    ["a tighter bound (minor from 1.0.0)", "patch", "0.3.1", (tool: SearchToolFile) => (tool.inputSchema.properties.query.maxLength = 100)],
    ["a field removed (major from 1.0.0)", "minor", "0.4.0", (tool: SearchToolFile) => delete tool.inputSchema.properties.limit],
  ])("%s: %s, %s", async (_what, bump, next, edit) => {
    const file = path.join(project.dir, "schemas/search-tickets.json");
    const tool = JSON.parse(readFileSync(file, "utf8"));
    edit(tool);
    writeFileSync(file, JSON.stringify(tool, null, 2));
    try {
      const diff = await project.run("diff", "main", "--format", "json");
      expect(diff.code).toBe(0);
      expect(JSON.parse(diff.stdout).sets[0]).toMatchObject({ bump, version: { base: "0.3.0", next } });
      expect((await project.run("diff", "main")).stdout).toContain(`package version bump: ${bump} (0.3.0 -> ${next})`);
      expect((await project.run("generate")).code).toBe(0);
      expect(version()).toBe(next);
    } finally {
      git(project.dir, "checkout", "--", ".");
    }
  });
});
