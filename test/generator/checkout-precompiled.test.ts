// A checkout runs toolguard's TypeScript sources. `prepare` (which `npm ci` runs) precompiles
// their runtime and tool template into precompiled.json at the checkout's root, so that a run
// does not transpile the runtime with TypeScript (~5 s of CPU on every run before). The file is
// used only while the sources it was made from are unchanged: an edit falls back to compiling on
// the fly, to the same bytes. (test/consumer/ shows the same for the built, installed package.)
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORD_TYPESCRIPT } from "../helpers/record-typescript.ts";

const repo = path.resolve(import.meta.dirname, "../..");
let root: string;
let checkout: string;
let project: string;

function contents(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  return new Map(files.sort().map((file) => [path.relative(dir, file), readFileSync(file, "utf8")]));
}

/** The checkout's `generate --no-cache` into a fresh generated/: its files, and the TypeScript modules it loaded. */
function generateFresh(): { files: Map<string, string>; typescript: string[] } {
  rmSync(path.join(project, "generated"), { recursive: true, force: true });
  const log = path.join(root, "typescript.log");
  rmSync(log, { force: true });
  const out = execFileSync(
    process.execPath,
    [`--import=${path.join(root, "record-typescript.mjs")}`, path.join(checkout, "generator/main.ts"), "generate", "--no-cache"],
    {
      cwd: project,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, TYPESCRIPT_LOG: log },
    },
  );
  expect(out).toMatch(/generated: 4 tools/);
  return { files: contents(path.join(project, "generated")), typescript: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [] };
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "toolguard-checkout-"));
  checkout = path.join(root, "checkout");
  project = path.join(root, "project");
  for (const part of ["package.json", "generator", "templates"]) cpSync(path.join(repo, part), path.join(checkout, part), { recursive: true });
  symlinkSync(path.join(repo, "node_modules"), path.join(checkout, "node_modules"));
  cpSync(path.join(repo, "schemas"), path.join(project, "schemas"), { recursive: true });
  cpSync(path.join(repo, "toolguard.config.json"), path.join(project, "toolguard.config.json"));
  symlinkSync(path.join(repo, "node_modules"), path.join(project, "node_modules"));
  writeFileSync(path.join(root, "record-typescript.mjs"), RECORD_TYPESCRIPT);
  execFileSync("npm", ["run", "prepare", "--silent"], { cwd: checkout, stdio: "pipe" });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a checkout's precompiled runtime and tool template", () => {
  it("are made by `prepare` at the checkout's root and used without loading TypeScript, to the same bytes", () => {
    expect(existsSync(path.join(checkout, "precompiled.json"))).toBe(true);
    const { files, typescript } = generateFresh();
    expect(typescript).toEqual([]);
    expect(files).toEqual(contents(path.join(repo, "generated")));
  });

  it("are ignored once a generator file changes: the run compiles them itself, to the same bytes", () => {
    appendFileSync(path.join(checkout, "generator/emit/runtime.ts"), "\n// edited after prepare\n");
    const { files, typescript } = generateFresh();
    expect(typescript.length).toBeGreaterThan(0);
    expect(files).toEqual(contents(path.join(repo, "generated")));
  });
});
