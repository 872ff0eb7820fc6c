// `toolguard generate --watch` as a user runs it: a child process that regenerates when a
// schema is saved, prints the time per run, survives a broken save with the error printed and
// the last good output kept, and does not react to its own output.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedConfig, ResolvedSet } from "../../generator/config.ts";
import { isSchemaChange } from "../../generator/watch.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

const tool = (properties: Record<string, unknown>) => ({
  name: "search_tickets",
  description: "Search tickets.",
  inputSchema: { type: "object", properties, required: ["query"] },
});

let project: TempProject;
let child: ChildProcess;
let stdout = "";
let stderr = "";

/** Waits until `test` holds for the output so far (polling; the timeout only ends a hung test). */
async function until(test: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const runs = () => stdout.split("\n").filter((line) => /^generated: 1 tool.* in \d+ ms$/.test(line));
const generatedTool = () => readFileSync(path.join(project.dir, "generated/tools/search-tickets.d.ts"), "utf8");

beforeAll(async () => {
  project = new TempProject({ "schemas/search-tickets.json": tool({ query: { type: "string" } }) });
  child = spawn(process.execPath, [path.join(REPO, "generator/main.ts"), "generate", "--watch"], { cwd: project.dir, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  await until(() => runs().length === 1, "the first generation");
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  project.remove();
});

describe("generate --watch", () => {
  it("regenerates on a schema change, printing the time", async () => {
    expect(stdout).toMatch(/^watching schemas \(Ctrl-C to stop\)$/m);
    expect(generatedTool()).not.toContain("priority");
    project.write("schemas/search-tickets.json", tool({ query: { type: "string" }, priority: { type: "string" } }));
    await until(() => runs().length === 2, "the regeneration");
    expect(generatedTool()).toContain("priority");
  });

  it("does not react to its own output: no run follows without a schema change", async () => {
    const count = runs().length;
    // Long enough for several debounce periods, had its own writes triggered anything.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(runs().length).toBe(count);
  });

  it("survives a broken save: the error is printed and the last good output kept; fixing it regenerates", async () => {
    const count = runs().length;
    project.write("schemas/search-tickets.json", '{ "name": "search_tickets", "inputSchema": { "type": ');
    await until(() => stderr.includes("the last good output is kept"), "the error");
    expect(stderr).toMatch(/search-tickets\.json/);
    expect(generatedTool()).toContain("priority");
    expect(child.exitCode).toBeNull();
    project.write("schemas/search-tickets.json", tool({ query: { type: "string" }, severity: { type: "integer" } }));
    await until(() => runs().length === count + 1, "the regeneration after the fix");
    expect(generatedTool()).toContain("severity");
    expect(generatedTool()).not.toContain("priority");
  });

  it("sees saves that replace the file (a new file renamed over the old, as editors' safe writes do), and the saves after them", async () => {
    const file = path.join(project.dir, "schemas/search-tickets.json");
    for (const [index, field] of ["urgency", "team"].entries()) {
      const count = runs().length;
      writeFileSync(`${file}.tmp`, JSON.stringify(tool({ query: { type: "string" }, [field]: { type: "string" } })));
      if (index === 0) renameSync(`${file}.tmp`, file);
      else project.write("schemas/search-tickets.json", tool({ query: { type: "string" }, [field]: { type: "string" } }));
      await until(() => runs().length === count + 1, `the regeneration for ${field}`);
      expect(generatedTool()).toContain(field);
    }
  });

  it("says so when the schema folder is renamed away, keeps watching, and regenerates when it is back", async () => {
    const count = runs().length;
    const gone = () => stderr.split("the schema folder schemas is gone").length - 1;
    const before = gone();
    renameSync(path.join(project.dir, "schemas"), path.join(project.dir, "schemas-moved"));
    await until(() => gone() === before + 1, "the message that the folder is gone", 10_000);
    expect(stderr).toContain("generated keeps the last good output. Waiting for schemas to come back");
    // An edit in the renamed folder is not the schema folder's: no run.
    writeFileSync(path.join(project.dir, "schemas-moved/search-tickets.json"), JSON.stringify(tool({ query: { type: "string" }, moved: { type: "string" } })));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(runs().length).toBe(count);
    expect(child.exitCode).toBeNull();
    renameSync(path.join(project.dir, "schemas-moved"), path.join(project.dir, "schemas"));
    await until(() => runs().length === count + 1, "the regeneration when it is back");
    expect(stdout).toMatch(/^schemas is back: regenerating$/m);
    expect(generatedTool()).toContain("moved");
  });

  it("says so when the schema folder is removed, and watches a new one made in its place", async () => {
    const count = runs().length;
    const gone = () => stderr.split("the schema folder schemas is gone").length - 1;
    const before = gone();
    rmSync(path.join(project.dir, "schemas"), { recursive: true });
    await until(() => gone() === before + 1, "the message that the folder is gone", 10_000);
    expect(generatedTool()).toContain("moved");
    project.write("schemas/search-tickets.json", tool({ query: { type: "string" }, recreated: { type: "string" } }));
    await until(() => runs().length > count && generatedTool().includes("recreated"), "the regeneration of the new folder", 20_000);
    // Saves in the new folder are seen too.
    const after = runs().length;
    project.write("schemas/search-tickets.json", tool({ query: { type: "string" }, later: { type: "string" } }));
    await until(() => runs().length > after && generatedTool().includes("later"), "the regeneration of a later save", 20_000);
  });

  it("stops cleanly on SIGTERM", async () => {
    child.kill("SIGTERM");
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
  });
});

describe("nothing to watch", () => {
  it("a schema folder that does not exist: exit 1 at once, naming it", async () => {
    const empty = new TempProject();
    try {
      const result = await empty.run("generate", "--watch");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/cannot watch .*schemas: no such folder/);
    } finally {
      empty.remove();
    }
  });
});

describe("which changes count", () => {
  const set: ResolvedSet = { schemas: "/p/schemas", out: "/p/generated", packageName: "x", extras: [] };
  const config = {
    file: undefined,
    sets: [set, { schemas: "/p/api", out: "/p/schemas/out", packageName: "y", extras: [] }],
    allowNetwork: false,
    strict: false,
  } as ResolvedConfig;

  it.each([
    ["/p/schemas/a.json", true],
    ["/p/schemas/_shared/money.yaml", true],
    ["/p/schemas/a.json~", false],
    ["/p/schemas/.a.json.swp", false],
    ["/p/schemas/.cache/a.json", false],
    ["/p/schemas/out/package.json", false],
    ["/p/generated/package.json", false],
    ["/p/schemas/node_modules/x/a.json", false],
  ])("%s: %s", (file, expected) => {
    expect(isSchemaChange(file, set, config)).toBe(expected);
  });
});
