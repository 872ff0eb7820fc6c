// A planted weak message: in a temp copy of the product, the message for a list sent where one
// value is wanted loses its `send <value>`. `toolguard rehearse`, run from that copy as a user
// runs the command, must report those cases as not repaired, first, where the real product
// repairs them.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RehearseReport } from "../../generator/rehearse/rehearse-command.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";
import { orderBreaks, parseReport, WEATHER_TOOL } from "./rehearse-helpers.ts";

const MESSAGE_FILE = "templates/runtime/explain/rules/literal-forms.ts";
// The message source as written: a template literal that offers the element (`send ${text}`).
const OFFERED = ["? `one value goes here, not a list: send $", "{text}`"].join("");

let copy: string;
const project = new TempProject({ "schemas/weather.json": WEATHER_TOOL });

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), "toolguard-degraded-"));
  for (const part of ["generator", "templates", "package.json"]) cpSync(path.join(REPO, part), path.join(copy, part), { recursive: true });
  symlinkSync(path.join(REPO, "node_modules"), path.join(copy, "node_modules"));
  const source = readFileSync(path.join(copy, MESSAGE_FILE), "utf8");
  // The planted defect must land: the message it degrades is still written this way.
  expect(source).toContain(OFFERED);
  writeFileSync(path.join(copy, MESSAGE_FILE), source.replace(OFFERED, '? "one value goes here, not a list"'));
});

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
  project.remove();
});

async function rehearseWith(root: string): Promise<RehearseReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, "generator/main.ts"), "rehearse", "--json"], {
    cwd: project.dir,
    maxBuffer: 64 * 1024 * 1024,
  });
  return parseReport(stdout);
}

const LIST_FOR_ONE = "list where one value is wanted";

describe("a planted weak message", () => {
  it("is repaired by the real product", async () => {
    const cases = (await rehearseWith(REPO)).tools[0]?.cases.filter((entry) => entry.mistake === LIST_FOR_ONE) ?? [];
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.every((entry) => entry.verdict === "repaired")).toBe(true);
  });

  it("shows up as not repaired, weakest first, when the message loses its value", async () => {
    const report = await rehearseWith(copy);
    const tool = report.tools[0];
    const weak = tool?.cases.filter((entry) => entry.mistake === LIST_FOR_ONE) ?? [];
    expect(weak.length).toBeGreaterThan(0);
    for (const entry of weak) {
      expect(entry.verdict).toBe("missed");
      expect(entry.repaired).toBe(false);
      expect(entry.errors.some((error) => error.message.includes("one value goes here, not a list"))).toBe(true);
    }
    // They lead the tool's list, and the enum without a description gets its schema advice.
    expect(tool?.cases.slice(0, weak.length).map((entry) => entry.mistake)).toEqual(weak.map(() => LIST_FOR_ONE));
    expect(weak.find((entry) => (entry.expected as { path?: string }).path === "/unit")?.advice).toMatch(/^describe \/unit and what each of its values means/);
    expect(tool?.summary.missed).toBe(weak.length);
    expect(orderBreaks(report)).toEqual([]);
  });
});
