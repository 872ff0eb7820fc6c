// The command's flags as its peers (openapi-typescript, orval, kubb) spell them: short forms, and
// `--set` to run some of several schema sets.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpTool, type TempProject, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

/** Two sets, `alpha` (schemas/a -> out/a) and `beta` (schemas/b -> out/b), in `tg.json`. */
function twoSets(): TempProject {
  const project = newProject({
    "schemas/a/one.json": mcpTool("one"),
    "schemas/b/two.json": mcpTool("two"),
    "tg.json": {
      sets: [
        { schemas: "schemas/a", out: "out/a", packageName: "alpha" },
        { schemas: "schemas/b", out: "out/b", packageName: "beta" },
      ],
    },
  });
  return project;
}

const written = (project: TempProject, out: string): boolean => existsSync(path.join(project.dir, out, "package.json"));

describe("-c and --set", () => {
  it("-c names the config as --config does", async () => {
    const project = twoSets();
    const result = await project.run("generate", "-c", "tg.json");
    expect(result.code).toBe(0);
    expect(written(project, "out/a") && written(project, "out/b")).toBe(true);
  });

  it("--set by package name writes that set only", async () => {
    const project = twoSets();
    const result = await project.run("generate", "-c", "tg.json", "--set", "beta");
    expect(result.code).toBe(0);
    expect(written(project, "out/b")).toBe(true);
    expect(written(project, "out/a")).toBe(false);
    expect(result.stdout).toContain("out/b: 1 tool");
    expect(result.stdout).not.toContain("out/a");
  });

  it("--set by out or schemas folder, repeated, in the config's order", async () => {
    const project = twoSets();
    const result = await project.run("generate", "--config", "tg.json", "--set", "./out/b/", "--set", "schemas/a");
    expect(result.code).toBe(0);
    expect(result.stdout.indexOf("out/a")).toBeLessThan(result.stdout.indexOf("out/b"));
    expect(written(project, "out/a") && written(project, "out/b")).toBe(true);
  });

  it("check --set checks that set only: the other's missing output is not looked at", async () => {
    const project = twoSets();
    expect((await project.run("generate", "-c", "tg.json", "--set", "alpha")).code).toBe(0);
    const result = await project.run("check", "-c", "tg.json", "--set", "alpha");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("out/a: up to date");
    expect((await project.run("check", "-c", "tg.json")).code).toBe(1);
  });

  it("a name no set answers to is a usage error listing the sets, and nothing is written", async () => {
    const project = twoSets();
    const result = await project.run("generate", "-c", "tg.json", "--set", "gamma");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--set "gamma": no schema set has that name; the sets are: alpha (out/a), beta (out/b)');
    expect(written(project, "out/a") || written(project, "out/b")).toBe(false);
  });

  it("-q prints nothing on success; report refuses the generate flags", async () => {
    const project = twoSets();
    expect(await project.run("generate", "-c", "tg.json", "-q")).toEqual({ code: 0, stdout: "", stderr: "" });
    const report = await project.run("report", "--set", "alpha");
    expect(report.code).toBe(2);
    expect(report.stderr).toContain("report reads a ledger");
  });
});

describe("help", () => {
  it("lists every flag the command accepts", async () => {
    const project = twoSets();
    const { stdout, code } = await project.run("--help");
    expect(code).toBe(0);
    for (const flag of [
      "-c, --config",
      "--set NAME",
      "--strict",
      "-w, --watch",
      "-q, --quiet",
      "--no-cache",
      "--json",
      "--tool NAME",
      "--seed N",
      "--limit N",
      "-h, --help",
      "-v",
    ]) {
      expect(stdout).toContain(flag);
    }
  });
});

describe("a schema folder that does not exist", () => {
  it('is named by its path, not as "."', async () => {
    const project = newProject({ "tg.json": { sets: [{ schemas: "vendor/tools", out: "out" }] } });
    const result = await project.run("generate", "-c", "tg.json");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path.join(project.dir, "vendor/tools")}: cannot read the set's schemas folder: no such folder`);
    expect(result.stderr).not.toMatch(/^\.: /m);
  });
});
