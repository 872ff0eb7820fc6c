// The README's own steps in a fresh project, ending in a production install: toolguard
// generates into generated/, says what package.json lacks, and once the project depends on the
// generated package (`npm install ./generated`), `npm ci --omit=dev` installs the run-time
// dependencies (re2js, @opentelemetry/api) and a guarded call works. Importing
// ./generated/index.js directly, as the README used to, fails there with ERR_MODULE_NOT_FOUND.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.ts";
import { REPO } from "../helpers/temp-project.ts";

let project: string;
let printed = "";

function npm(args: readonly string[]): string {
  return execFileSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: project,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const USE = `import { searchTickets } from "generated-tools";
const guarded = searchTickets.implement(() => "found");
const outcome = await guarded.call('{"query":"refund","page":{"size":"10"}}', { turn: "t1" });
console.log(outcome.status, outcome.result);
`;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), "toolguard-production-"));
  cpSync(path.join(REPO, "schemas"), path.join(project, "schemas"), { recursive: true });
  // toolguard is a devDependency (README step 2); the project is ESM (the snippet's imports).
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "agent", private: true, type: "module", devDependencies: {} }, null, 2));
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => {
    printed += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    expect(await main(["generate", "--no-cache"], project)).toBe(0);
  } finally {
    process.stdout.write = write;
  }
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("a production install by the README's steps", () => {
  it("generate says exactly what package.json lacks", () => {
    expect(printed).toContain(
      'note: generated/ imports @opentelemetry/api and re2js at run time, and package.json does not list generated-tools in "dependencies"',
    );
    expect(printed).toContain('Run `npm install ./generated` (adds "generated-tools": "file:generated")');
  });

  it("after `npm install ./generated`, npm ci --omit=dev installs what the package imports", () => {
    npm(["install", "./generated"]);
    expect(JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")).dependencies).toEqual({ "generated-tools": "file:generated" });
    rmSync(path.join(project, "node_modules"), { recursive: true, force: true });
    npm(["ci", "--omit=dev"]);
    writeFileSync(path.join(project, "use.js"), USE);
    const run = spawnSync(process.execPath, ["use.js"], { cwd: project, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("ok found\n");
  });

  it("regenerating with the dependency in place prints no note", async () => {
    let again = "";
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      again += String(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      expect(await main(["generate", "--no-cache"], project)).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(again).not.toContain("note:");
  });
});
