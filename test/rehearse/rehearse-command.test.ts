// `toolguard rehearse` run as a user runs it: on the shipped example schemas (schemas/), on an
// OpenAPI document, in JSON and for a terminal, seeded, weakest first.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, projectsRemovedAfterEach } from "../helpers/temp-project.ts";
import { orderBreaks, parseReport, petsAndWeather } from "./rehearse-helpers.ts";

const newProject = projectsRemovedAfterEach();

/** The command on a copy of the shipped schemas/ with no config: the default set, as `generate` reads it. */
async function onExamples(...argv: string[]) {
  const project = newProject();
  cpSync(path.join(REPO, "schemas"), path.join(project.dir, "schemas"), { recursive: true });
  return project.run("rehearse", ...argv);
}

describe("toolguard rehearse on the example schemas", () => {
  it("rehearses every tool of schemas/ and reports each case in JSON", async () => {
    const result = await onExamples("--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const report = parseReport(result.stdout);
    expect(report.seed).toBe(1);
    expect(report.limit).toBe(40);
    expect(report.tools.map((tool) => tool.tool).sort()).toEqual(["create_invoice", "schedule_meeting", "search_tickets", "update_org_chart"]);
    for (const tool of report.tools) {
      expect(tool.set).toBe("generated-tools");
      expect(tool.source).toMatch(/^schemas\/[\w-]+\.(json|yaml)$/);
      expect(tool.validCall).toBeTypeOf("object");
      expect(tool.cases.length).toBeGreaterThan(10);
      expect(tool.summary.cases).toBe(tool.cases.length);
      // Every class of case reaches the guard: syntactic ones as text, the others as arguments.
      expect(tool.cases.some((entry) => entry.text !== undefined)).toBe(true);
      expect(tool.cases.some((entry) => entry.args !== undefined)).toBe(true);
      for (const entry of tool.cases) {
        expect(Object.keys(entry).sort()).toEqual(
          [
            entry.text === undefined ? "args" : "text",
            "errors",
            "expected",
            "flagged",
            "mistake",
            "repairable",
            "repaired",
            "verdict",
            ...(entry.advice ? ["advice"] : []),
          ].sort(),
        );
        expect(entry.errors.length).toBeGreaterThan(0);
        for (const error of entry.errors) expect(Object.keys(error).sort()).toEqual(["message", "path", "rule"]);
        // A repaired case is repairable; a stated one is not.
        if (entry.verdict === "repaired") expect(entry.repairable && entry.repaired).toBe(true);
        if (entry.verdict === "stated") expect(entry.repairable || !entry.flagged).toBe(false);
      }
    }
    const all = report.tools.flatMap((tool) => tool.cases);
    expect(report.summary.cases).toBe(all.length);
    expect(report.summary.repaired).toBe(all.filter((entry) => entry.repaired).length);
    expect(new Set(all.map((entry) => entry.mistake)).size).toBeGreaterThan(12);
    // The shipped examples' messages serve a literal repairer: most cases are repaired.
    expect(report.summary.repaired / report.summary.repairable).toBeGreaterThan(0.9);
    expect(orderBreaks(report)).toEqual([]);
  });

  it("--tool narrows to the tools named; --limit caps the cases a tool, spread over the classes", async () => {
    const result = await onExamples("--json", "--tool", "create_invoice", "--tool", "search_tickets", "--limit", "6");
    expect(result.code).toBe(0);
    const report = parseReport(result.stdout);
    expect(report.tools.map((tool) => tool.tool).sort()).toEqual(["create_invoice", "search_tickets"]);
    for (const tool of report.tools) {
      expect(tool.cases.length).toBeLessThanOrEqual(6);
      expect(tool.cases.length).toBeGreaterThanOrEqual(5);
      // One case of each class before a second of any.
      expect(new Set(tool.cases.map((entry) => entry.mistake)).size).toBe(tool.cases.length);
    }
  });

  it("is deterministic by seed: the same seed gives the same report, another seed other cases", async () => {
    const once = await onExamples("--json", "--seed", "7");
    const again = await onExamples("--json", "--seed", "7");
    expect(again.stdout).toBe(once.stdout);
    const other = await onExamples("--json", "--seed", "8");
    expect(parseReport(other.stdout).seed).toBe(8);
    const calls = (stdout: string) =>
      parseReport(stdout).tools.map((tool) => JSON.stringify([tool.validCall, tool.cases.map((entry) => entry.args ?? entry.text)]));
    expect(calls(other.stdout)).not.toEqual(calls(once.stdout));
  });

  it("prints for a terminal: a line per tool, then each case's verdict, call and envelope", async () => {
    const result = await onExamples("--tool", "schedule_meeting");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^schedule_meeting \(schemas\/schedule-meeting\.json, set generated-tools\): \d+ cases, \d+ flagged with the fix/);
    expect(lines[1]).toMatch(/^ {2}(MISSED|MISREPAIRED|UNREPAIRED|stated|repaired) +\S/);
    expect(lines[2]).toMatch(/^ {4}sent: {5}\S/);
    expect(lines[3]).toMatch(/^ {4}envelope: \/\S*: \S/);
    expect(result.stdout).toMatch(/\n1 tool, seed 1, at most 40 cases a tool: \d+ cases/);
  });
});

describe("docs/rehearse.md", () => {
  it("shows the command's real output on the example schemas", async () => {
    const result = await onExamples("--tool", "search_tickets", "--limit", "8");
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(REPO, "docs/rehearse.md"), "utf8")).toContain(result.stdout.trim());
  });
});

describe("a repair to another call than meant", () => {
  it("is its own verdict, weaker than a refused repair: the call passes with a value nobody asked for", async () => {
    // `pen` is cut short from `pending`, one edit from `open`: a message that offers `open` gets the call through, wrongly.
    const tool = {
      name: "find_tickets",
      description: "Tickets by status.",
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["status"],
        properties: { status: { type: "string", enum: ["pending", "open", "solved"] } },
      },
    };
    const project = newProject({ "schemas/find.json": tool });
    // The valid call's status is drawn by the seed: a few seeds reach `pending`.
    let seen = 0;
    for (const seed of ["1", "2", "3", "4", "5", "6"]) {
      const report = parseReport((await project.run("rehearse", "--json", "--seed", seed)).stdout);
      const wrong = (report.tools[0]?.cases ?? []).filter((entry) => entry.verdict === "misrepaired");
      for (const entry of wrong) {
        expect(entry.repaired).toBe(true);
        expect(entry.expected).toMatchObject({ op: "set", path: "/status", value: "pending" });
        expect(entry.errors.some((error) => /did you mean "(open|solved)"/.test(error.message))).toBe(true);
      }
      expect(report.tools[0]?.summary.misrepaired).toBe(wrong.length);
      expect(orderBreaks(report)).toEqual([]);
      seen += wrong.length;
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe("a required field with one allowed value", () => {
  it("left out, is no fact to ask for: the case expects the value sent, and the message sends it", async () => {
    const tool = {
      name: "expire_store",
      description: "When a store expires.",
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["anchor", "days"],
        properties: { anchor: { type: "string", enum: ["last_active_at"] }, days: { type: "integer", minimum: 1 } },
      },
    };
    const project = newProject({ "schemas/expire.json": tool });
    const report = parseReport((await project.run("rehearse", "--json")).stdout);
    const missing = report.tools[0]?.cases.filter((entry) => entry.mistake === "required field missing") ?? [];
    // Weakest first: the fact to ask for (stated) before the value sent (repaired).
    expect(missing.map((entry) => [entry.expected, entry.verdict])).toEqual([
      [{ op: "ask", path: "/days" }, "stated"],
      [{ op: "set", path: "/anchor", value: "last_active_at" }, "repaired"],
    ]);
  });
});

describe("a field with int64's bounds", () => {
  it("gets a valid call within 2^53, so the tool is rehearsed rather than refused", async () => {
    // OpenAPI documents write int64 as these bounds; a call at them loses its digits in JSON.
    // Written as text, so the file holds the bounds' exact digits as a vendor's document does.
    const tool = `{"name": "seeded_sample", "description": "A sample, seeded.", "inputSchema": {"type": "object",
      "additionalProperties": false, "required": ["seed"],
      "properties": {"seed": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}}}}`;
    const project = newProject({ "schemas/sample.json": tool });
    const report = parseReport((await project.run("rehearse", "--json")).stdout);
    const rehearsed = report.tools[0];
    expect(rehearsed?.note).toBeUndefined();
    expect(Number.isSafeInteger((rehearsed?.validCall as { seed?: unknown } | undefined)?.seed)).toBe(true);
    expect(rehearsed?.cases.length).toBeGreaterThan(3);
  });
});

describe("toolguard rehearse on an OpenAPI document", () => {
  it("rehearses each operation's tool as generate reads it, body and parameters together", async () => {
    const project = petsAndWeather(newProject);
    const result = await project.run("rehearse", "-c", "tg.json", "--set", "pets", "--json");
    expect(result.code).toBe(0);
    const report = parseReport(result.stdout);
    const names = report.tools.map((tool) => tool.tool);
    expect(names).toEqual(expect.arrayContaining(["createPet", "listPets", "showPetById"]));
    expect(report.tools.every((tool) => tool.set === "pets" && tool.source === "api/petstore.yaml")).toBe(true);
    const createPet = report.tools.find((tool) => tool.tool === "createPet");
    // The request body sits under `body`, as the generated tool takes it; the class that sends its fields flat acts on it.
    expect(createPet?.validCall).toMatchObject({ body: { name: expect.any(String) } });
    expect(createPet?.cases.some((entry) => entry.mistake === "body fields at the top level")).toBe(true);
    // The operation generate skips (an image body) is not rehearsed, and the report says so.
    expect(names).not.toContain("uploadPhoto");
    expect(report.skipped).toEqual([{ set: "pets", tool: "uploadPhoto", source: "api/petstore.yaml", reason: expect.stringContaining("no JSON media type") }]);
    const text = await project.run("rehearse", "-c", "tg.json", "--set", "pets", "--limit", "1");
    expect(text.stdout).toContain(
      "not rehearsed: 1 operation that generate skips:\n  uploadPhoto (api/petstore.yaml, set pets): request body has no JSON media type",
    );
    expect(text.stdout).toMatch(/at most 1 case a tool: \d+ cases/);
    expect(orderBreaks(report)).toEqual([]);
  });
});
