// toolguard as its users get it: packed with npm (which builds dist/ through `prepack`),
// installed as a dependency of a fresh project, and run through its `toolguard` bin on the
// shipped example schemas, from the built JavaScript, with no TypeScript sources on the path.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
let project: string;

function run(command: string, args: readonly string[]): string {
  return execFileSync(command, args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), "toolguard-user-"));
  execFileSync("npm", ["pack", repo, "--pack-destination", project, "--silent"], { cwd: repo, stdio: "pipe" });
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "platform", private: true, type: "module", scripts: { prebuild: "toolguard generate" } }));
  cpSync(path.join(repo, "schemas"), path.join(project, "schemas"), { recursive: true });
  run("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--silent"]);
}, 300_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("toolguard, installed as a dependency", () => {
  it("runs from its built form and writes the same package as the checkout", () => {
    expect(readdirSync(path.join(project, "node_modules/toolguard/dist/generator"))).toContain("main.js");
    const out = run("npx", ["toolguard", "generate"]);
    expect(out).toMatch(/generated: 4 tools/);
    expect(run("npx", ["toolguard", "check"])).toMatch(/up to date/);
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
    expect(files(path.join(project, "generated"))).toEqual(files(path.join(repo, "generated")));
  });

  it("runs as the prebuild step", () => {
    expect(run("npm", ["run", "prebuild", "--silent"])).toMatch(/generated: 4 tools/);
  });
});
