// toolguard as its users get it: packed with npm (which builds dist/ through `prepack`),
// installed as a dependency of a fresh project, and run through its `toolguard` bin on the
// shipped example schemas, from the built JavaScript, with no TypeScript sources on the path,
// and from the runtime and tool template the build precompiled, without loading TypeScript.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORD_TYPESCRIPT } from "../helpers/record-typescript.ts";

const repo = path.resolve(import.meta.dirname, "../..");
let project: string;

function run(command: string, args: readonly string[], env: Record<string, string> = {}): string {
  return execFileSync(command, args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
}

/** `toolguard generate` into a fresh generated/: its files by path, and the TypeScript modules it loaded. */
function generateFresh(): { files: Map<string, string>; typescript: string[] } {
  rmSync(path.join(project, "generated"), { recursive: true, force: true });
  rmSync(path.join(project, ".toolguard"), { recursive: true, force: true });
  const log = path.join(project, "typescript.log");
  rmSync(log, { force: true });
  expect(run("npx", ["toolguard", "generate"], { NODE_OPTIONS: `--import=${path.join(project, "record-typescript.mjs")}`, TYPESCRIPT_LOG: log })).toMatch(
    /generated: 4 tools/,
  );
  return { files: contents(path.join(project, "generated")), typescript: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [] };
}

function contents(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  return new Map(files.sort().map((file) => [path.relative(dir, file), readFileSync(file, "utf8")]));
}

beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), "toolguard-user-"));
  execFileSync("npm", ["pack", repo, "--pack-destination", project, "--silent"], { cwd: repo, stdio: "pipe" });
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "platform", private: true, type: "module", scripts: { prebuild: "toolguard generate" } }),
  );
  cpSync(path.join(repo, "schemas"), path.join(project, "schemas"), { recursive: true });
  cpSync(path.join(repo, "toolguard.config.json"), path.join(project, "toolguard.config.json"));
  writeFileSync(path.join(project, "record-typescript.mjs"), RECORD_TYPESCRIPT);
  run("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--silent"]);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("toolguard, installed as a dependency", () => {
  it("runs from its built form and writes the same package as the checkout", () => {
    expect(readdirSync(path.join(project, "node_modules/toolguard/dist/generator"))).toContain("main.js");
    const out = run("npx", ["toolguard", "generate"]);
    expect(out).toMatch(/generated: 4 tools/);
    expect(run("npx", ["toolguard", "check"])).toMatch(/up to date/);
    const files = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        .sort();
    expect(files(path.join(project, "generated"))).toEqual(files(path.join(repo, "generated")));
  });

  it("runs as the prebuild step", () => {
    expect(run("npm", ["run", "prebuild", "--silent"])).toMatch(/generated: 4 tools/);
  });

  it("uses the runtime and tool template its build precompiled, and writes the checkout's bytes", () => {
    const { files, typescript } = generateFresh();
    expect(typescript).toEqual([]);
    expect(files).toEqual(contents(path.join(repo, "generated")));
    // The template goes into the cache too: a re-run reads that entry, not the precompiled file.
    expect(readdirSync(path.join(project, ".toolguard/cache/package")).some((file) => file.startsWith("tool-template-"))).toBe(true);
  });

  it("compiles them itself, to the same bytes, when the precompiled file does not match its sources", () => {
    const shipped = path.join(project, "node_modules/toolguard/dist/precompiled.json");
    const original = readFileSync(shipped, "utf8");
    // Made from other sources, and so unlike them that using it would show in every file.
    const stale = JSON.parse(original) as {
      key: string;
      runtime: { path: string; content: string }[];
      extras: { path: string; content: string }[];
      toolTemplate: { js: { pieces: unknown[] } };
    };
    stale.key = stale.key.replace(/^./, (digit) => (digit === "0" ? "1" : "0"));
    for (const file of stale.runtime) file.content = "// stale\n";
    for (const file of stale.extras) file.content = "// stale\n";
    stale.toolTemplate.js.pieces.unshift("// stale\n");
    writeFileSync(shipped, JSON.stringify(stale));
    try {
      const { files, typescript } = generateFresh();
      expect(typescript.length).toBeGreaterThan(0);
      expect(files).toEqual(contents(path.join(repo, "generated")));
    } finally {
      writeFileSync(shipped, original);
    }
  });
});
