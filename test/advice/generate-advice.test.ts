// `generate` prints the schema advice on stderr, grouped, and still writes the package (advice
// is never an error); -q and the set's `advice` option silence it; a bad `advice` option is a
// usage error naming where it is.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpTool, type TempProject, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

const idTool = (name: string) => mcpTool(name, { type: "object", properties: { account_id: { type: "string" } }, required: ["account_id"] });

function project(advice?: unknown): TempProject {
  const made = newProject({
    "schemas/a.json": idTool("close_account"),
    "schemas/b.json": idTool("open_account"),
    "schemas/c.json": idTool("rename_account"),
    "schemas/d.json": mcpTool("list_regions", { type: "object", properties: { region: { enum: Array.from({ length: 14 }, (_, i) => `r${i}`) } } }),
    "schemas/e.json": mcpTool("ping"),
    "toolguard.config.json": { sets: [{ schemas: "schemas", out: "out", ...(advice === undefined ? {} : { advice }) }] },
  });
  return made;
}

describe("generate prints advice", () => {
  it("on stderr, counted by kind, a place many tools share once, the rest per tool; the package is written", async () => {
    const made = project();
    const result = await made.run("generate", "--no-cache");
    expect(result.code).toBe(0);
    expect(existsSync(path.join(made.dir, "out/package.json"))).toBe(true);
    expect(result.stdout).not.toContain("advice");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "toolguard: advice for schemas: 4 for 4 tools (invented-id 3, undescribed-enum 1); not errors, silenced per tool with the set's advice.ignore (docs/advice.md)",
    );
    expect(lines[1]).toBe(
      '  3 tools (close_account, open_account, rename_account), invented-id at /properties/account_id: "account_id" asks the model for an identifier it can only copy or invent',
    );
    expect(lines[2]).toMatch(/^ {6}change: ask for what the user can name/);
    expect(lines[3]).toBe("  list_regions (d.json):");
    expect(lines[4]).toMatch(/^ {4}undescribed-enum at \/properties\/region: 14 allowed values and no description/);
    expect(lines[5]).toMatch(/^ {6}change: add a "description"/);
    expect(lines).toHaveLength(6);
    expect(result.stderr).not.toContain("ping");
  });

  it("prints the same advice when the cache answers the run", async () => {
    const made = project();
    const first = await made.run("generate");
    const second = await made.run("generate");
    expect(second.stdout).toContain("(unchanged)");
    expect(second.stderr).toBe(first.stderr);
    expect(second.stderr).toContain("advice for schemas: 4 for 4 tools");
  });

  it("prints nothing under -q", async () => {
    const result = await project().run("generate", "-q", "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("advice.ignore silences a tool or one kind on a tool; advice: false the whole set", async () => {
    const ignored = await project({ ignore: ["close_account", "list_regions:undescribed-enum"] }).run("generate", "--no-cache");
    expect(ignored.code).toBe(0);
    expect(ignored.stderr).toContain("advice for schemas: 2 for 2 tools (invented-id 2)");
    expect(ignored.stderr).not.toMatch(/close_account|list_regions/);
    const off = await project(false).run("generate", "--no-cache");
    expect(off.code).toBe(0);
    expect(off.stderr).toBe("");
  });

  it("a bad advice option is a usage error that names it, and nothing is written", async () => {
    for (const [advice, message] of [
      [{ ignore: ["close_account:typo"] }, 'sets[0].advice.ignore[0]: "close_account:typo" names no kind of advice'],
      [{ ignore: "close_account" }, "sets[0].advice must be false or { ignore:"],
      [{ silence: [] }, 'sets[0].advice: unknown option "silence" (known: ignore)'],
      [[1], "sets[0].advice must be false or { ignore:"],
    ] as const) {
      const made = project(advice);
      const result = await made.run("generate", "--no-cache");
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(existsSync(path.join(made.dir, "out"))).toBe(false);
    }
  });
});

describe("advice text on a terminal", () => {
  it("escapes control characters, line separators and bidirectional overrides from schemas", async () => {
    const made = newProject({
      "schemas/a.json": mcpTool("evil", { type: "object", properties: { "x\u001b[2J\u202e_id": { type: "string" } }, required: ["x\u001b[2J\u202e_id"] }),
    });
    const result = await made.run("generate", "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("/properties/x\\u{1b}[2J\\u{202e}_id");
    expect(result.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});
