// An operation whose tool fails only when it is emitted (its validator cannot be compiled: a
// pattern with lookaround, which cannot be matched in linear time) is skipped with its reason,
// like one the reader cannot read; it never refuses the rest of its document (issue 32: one
// lookaround pattern refused all 142 operations of a vendor's description). In a tool file such a
// pattern skips its tool too: the schema is valid, only toolguard cannot enforce it, and a tool
// list taken from a published MCP server is no file the team edits (round 19, Postman's MCP
// server). `--strict` refuses the document, and the tool file, instead.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { type TempProject, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

const operation = (operationId: string, pattern?: string) => ({
  post: {
    operationId,
    requestBody: {
      required: true,
      content: { "application/json": { schema: { type: "object", properties: { note: { type: "string", ...(pattern ? { pattern } : {}) } } } } },
    },
    responses: { 200: { description: "ok" } },
  },
});

function vendorProject(): TempProject {
  const project = newProject({
    "schemas/api.json": {
      openapi: "3.0.3",
      info: { title: "vendor", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/a": operation("first"),
        "/b": operation("lookahead", "^draft(?!-old).*$"),
        "/c": operation("backreference", "^(a)\\1$"),
        "/d": operation("last", "^[\\s\\S]{1,20}$"),
      },
    },
  });
  return project;
}

describe("a tool that cannot be emitted, in an OpenAPI document", () => {
  it("is skipped with the reason and the fix; the document's other operations are generated", async () => {
    const project = vendorProject();
    const result = await project.run("generate", "--no-cache");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("generated: 2 tools");
    expect(result.stdout).toContain("skipped 2 operations");
    expect(result.stdout).toMatch(/lookahead \(api\.json#\/paths\/~1b\/post\): .*lookahead and lookbehind cannot be matched in linear time.*fix: /);
    expect(result.stdout).toMatch(/backreference \(api\.json#\/paths\/~1c\/post\): .*backreferences cannot be matched in linear time/);
    const index = project.read("generated/index.js");
    expect(index).toContain("first");
    expect(index).toContain("last");
    expect(index).not.toContain("lookahead");
    expect(() => project.read("generated/tools/lookahead.js")).toThrow();
  });

  it("refuses the document under --strict, naming each", async () => {
    const project = vendorProject();
    const result = await project.run("generate", "--no-cache", "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("lookahead and lookbehind cannot be matched in linear time");
    expect(result.stderr).toContain("backreferences cannot be matched in linear time");
  });

  it("the cache answers a re-run with the same tools and skips", async () => {
    const project = vendorProject();
    const first = await project.run("generate");
    const second = await project.run("generate");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("generated: 2 tools");
    expect(second.stdout).toContain("skipped 2 operations");
    expect(first.stdout.replace(/done in \d+ ms/, "")).toContain("skipped 2 operations");
  });
});

describe("the same pattern in a tool file", () => {
  const files = {
    "schemas/tool.json": {
      name: "note",
      description: "Note.",
      inputSchema: { type: "object", properties: { note: { type: "string", pattern: "^draft(?!-old).*$" } } },
    },
    "schemas/other.json": { name: "other", description: "Other.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  };

  it("skips its tool with the reason; the set's other tools are generated", async () => {
    const project = newProject(files);
    const result = await project.run("generate", "--no-cache");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("generated: 1 tool");
    expect(result.stdout).toMatch(/note \(tool\.json#\): .*lookahead and lookbehind cannot be matched in linear time.*fix: /);
  });

  it("stops the run under --strict", async () => {
    const project = newProject(files);
    const result = await project.run("generate", "--no-cache", "--strict");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("lookahead and lookbehind cannot be matched in linear time");
  });
});

describe("lookaheads right after a leading ^, in a tool file and in a document", () => {
  // Password and "not this word" rules (Linear's MCP server: `^(?!.*linear)`) are split into
  // linear-time tests (runtime/validate/pattern-lookahead.ts): generated, and checked as written.
  it("generates the tools, whose calls are checked as the pattern means", async () => {
    const project = newProject({
      "schemas/tool.json": {
        name: "set_password",
        description: "Set a password.",
        inputSchema: {
          type: "object",
          required: ["password", "project"],
          properties: { password: { type: "string", pattern: "^(?=.*\\d)(?=.*[A-Z]).{8,}$" }, project: { type: "string", pattern: "^(?!.*linear)" } },
        },
      },
      "schemas/api/api.json": {
        openapi: "3.0.3",
        info: { title: "vendor", version: "1" },
        servers: [{ url: "https://api.example.com" }],
        paths: { "/notes": operation("create_note", "^(?!draft)[a-z ]+$") },
      },
    });
    const result = await project.run("generate", "--no-cache");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("skipped");
    interface Package {
      readonly tools: Record<
        string,
        { implement(impl: () => unknown, options: object): { ready(): Promise<unknown>; check(raw: string, context: object): { ok: boolean } } }
      >;
      readonly MemorySink: new () => object;
    }
    const pkg = (await import(pathToFileURL(path.join(project.dir, "generated/index.js")).href)) as Package;
    expect(Object.keys(pkg.tools).sort()).toEqual(["create_note", "set_password"]);
    const guarded = pkg.tools.set_password?.implement(() => "set", { ledger: new pkg.MemorySink() });
    await guarded?.ready();
    let turn = 0;
    const passes = (raw: string) => guarded?.check(raw, { turn: `t${turn++}` }).ok;
    expect(passes('{"password":"Secret123","project":"atlas"}')).toBe(true);
    expect(passes('{"password":"secret123","project":"atlas"}')).toBe(false); // no capital
    expect(passes('{"password":"Secretxyz","project":"atlas"}')).toBe(false); // no digit
    expect(passes('{"password":"Secret123","project":"my linear board"}')).toBe(false);
  });
});

describe("two operations whose tools get one export name", () => {
  // clever-cloud's description: the corpus found its whole document refused for one such pair.
  it("the later one in name order is skipped with the fix; --strict refuses", async () => {
    const project = newProject({
      "schemas/api.json": {
        openapi: "3.0.3",
        info: { title: "vendor", version: "1" },
        paths: { "/a": operation("get-thing"), "/b": operation("get_thing"), "/c": operation("other") },
      },
    });
    const result = await project.run("generate", "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("generated: 2 tools");
    expect(result.stdout).toMatch(
      /get_thing \(api\.json#\/paths\/~1b\/post\): tool "get_thing" has the same export name as tool "get-thing".*fix: give one of the two operations another operationId\n/,
    );
    expect((await project.run("generate", "--no-cache", "--strict")).code).toBe(1);
  });

  it("from two documents of one folder, the fix says to read one of them, in the set's `entry`", async () => {
    // A folder holding one API twice (v1 and v2 of one description, each an entry document).
    const document = (version: string) => ({ openapi: "3.0.3", info: { title: "vendor", version }, paths: { "/a": operation("get-thing") } });
    const project = newProject({ "schemas/v1.json": document("1"), "schemas/v2.json": document("2") });
    const result = await project.run("generate", "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'tool "get-thing" has the same name as tool "get-thing" (v1.json#/paths/~1a/post); fix: both documents describe POST /a: if the two documents describe one API, read only one of them (name it in the set\'s `entry`, or give each document a set of its own); otherwise give one of the two operations another operationId',
    );
    const strict = await project.run("generate", "--no-cache", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("read only one of them (name it in the set's `entry`");
    // Within one document the `entry` advice would be no fix: it is not given (the test above).
  });
});
