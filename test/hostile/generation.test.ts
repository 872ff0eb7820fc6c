// Hostile schemas: what the stack under toolguard gets wrong on its own, closed by toolguard's
// code. Text injection through every emitter is test/generator/injection.test.ts; `$ref`
// outside the root, to the network and to `#/constructor` are in test/generator/bad-input.test.ts.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.ts";
import { growth, GROWTH_FACTOR, LINEAR_GROWTH_LIMIT } from "../helpers/growth.ts";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";
import { emitAndLoad } from "./load-validator.ts";

let project: TempProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

// The bombs' time limits are about the work a bomb causes, not about loading the generator's
// libraries (TypeScript, ajv, prettier) for the first time in this process: load them first.
beforeAll(async () => {
  const warm = new TempProject({ "schemas/warm.json": mcpTool("warm") });
  try {
    expect((await warm.run("generate")).code).toBe(0);
  } finally {
    warm.remove();
  }
});

/** Runs generate in a new project. */
async function generate(files: Record<string, unknown>): Promise<{ code: number; stderr: string }> {
  project = new TempProject(files);
  const result = await project.run("generate");
  return { code: result.code, stderr: result.stderr };
}

async function refusal(schema: Record<string, unknown>): Promise<string> {
  try {
    await emitAndLoad(schema);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

describe("property names from Object.prototype", () => {
  it.each(["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__"])("required: [%j] rejects {} in the generated validator", async (name) => {
    const { validate } = await emitAndLoad({ type: "object", required: [name] });
    expect(validate({})).toBe(false);
    expect(validate(JSON.parse(`{${JSON.stringify(name)}: 1}`))).toBe(true);
  });

  it('uniqueItems sees duplicate "__proto__" and "toString" strings', async () => {
    const { validate } = await emitAndLoad({ type: "object", properties: { tags: { type: "array", items: { type: "string" }, uniqueItems: true } } });
    expect(validate({ tags: ["__proto__", "__proto__"] })).toBe(false);
    expect(validate({ tags: ["toString", "toString"] })).toBe(false);
    expect(validate({ tags: ["__proto__", "toString", "valueOf"] })).toBe(true);
  });

  it("const, enum and uniqueItems compare data with toString/valueOf keys without throwing", async () => {
    const { validate } = await emitAndLoad({ type: "object", properties: { c: { const: { a: 1 } }, e: { enum: [{ a: 1 }] }, u: { uniqueItems: true } } });
    for (const hostile of [{ toString: 1 }, { valueOf: 1 }, { constructor: 1 }]) {
      expect(validate({ c: hostile, e: hostile, u: [hostile, hostile] })).toBe(false);
      expect(validate({ u: [hostile, { ...hostile, x: 1 }] })).toBe(true);
    }
  });

  it.each([
    ["schemas/t.json", `{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"__proto__": {"type": "string"}}}}`],
    ["schemas/t.yaml", "name: t\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    __proto__:\n      type: string\n"],
    ["schemas/t.json", `{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"const": {"__proto__": 1}}}}}`],
  ])("a __proto__ key (%s) is refused with its location, not silently dropped", async (file, text) => {
    const result = await generate({ [file]: text });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/#\/inputSchema\/properties\/(__proto__|a\/const\/__proto__): the key "__proto__" names JavaScript's prototype/);
  });

  it.each(["#/__proto__", "#/constructor/prototype", "#/properties/a/toString", "#/$defs/__proto__/x"])(
    "$ref %s into the prototype chain is an error",
    async (ref) => {
      const result = await generate({ "schemas/t.json": mcpTool("t", { type: "object", properties: { a: { type: "string" }, b: { $ref: ref } } }) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/dangling \$ref/);
    },
  );
});

describe("regular expressions", () => {
  // V8's backtracking engine needs about 2^n steps for `^(a+)+$` against n "a"s and a "b".
  it("a catastrophic pattern cannot hang a call: the generated validator matches in linear time", async () => {
    const { code, validate } = await emitAndLoad({
      type: "object",
      properties: { p: { type: "string", pattern: "^(a+)+$" } },
      patternProperties: { "^(b|bb)*$": { type: "string" } },
    });
    expect(code).toContain(`import { linearRegExp } from "../runtime/validate/pattern.js";`);
    expect(code).not.toMatch(/new RegExp\(/);
    // Each of these would take a backtracking engine longer than the test's timeout.
    expect(validate({ p: `${"a".repeat(28)}b` })).toBe(false);
    expect(validate({ p: `${"a".repeat(100_000)}!` })).toBe(false);
    expect(validate({ [`${"b".repeat(40)}c`]: 1 })).toBe(true);
    expect(validate({ p: "aaaa" })).toBe(true);
    // Eight times the input costs about eight times as much (see helpers/growth.ts).
    const inputs = new Map([25_000, GROWTH_FACTOR * 25_000].map((length) => [length, { p: `${"a".repeat(length)}!` }]));
    expect(await growth((length) => validate(inputs.get(length)), 25_000)).toBeLessThan(LINEAR_GROWTH_LIMIT);
  });

  it("patterns mean what ECMAScript says: \\s, ., \\u escapes and long category names", async () => {
    const { validate } = await emitAndLoad({
      type: "object",
      properties: {
        s: { type: "string", pattern: "^\\s$" },
        d: { type: "string", pattern: "^.$" },
        u: { type: "string", pattern: "^\\u00e9\\u{1F600}$" },
        l: { type: "string", pattern: "^\\p{Letter}+$" },
      },
    });
    expect(validate({ s: "\u00a0", d: "\u00e9", u: "\u00e9\u{1F600}", l: "héllo" })).toBe(true);
    expect(validate({ d: "\u2028" })).toBe(false);
    expect(validate({ l: "h3llo" })).toBe(false);
  });

  it("\\S inside a class means what ECMAScript says: [\\s\\S] is any character, [\\S] no space of any kind", async () => {
    // Box's description writes `[\s\S]*?` (the usual "anything, newlines included") and was refused.
    const { validate } = await emitAndLoad({
      type: "object",
      properties: {
        any: { type: "string", pattern: "^\\{a\\}[\\s\\S]*?\\{b\\}$" },
        word: { type: "string", pattern: "^[\\S]+$" },
        mixed: { type: "string", pattern: "^[\\S,]+$" },
        none: { type: "string", pattern: "^[^\\S]+$" },
      },
    });
    expect(validate({ any: "{a}line one\n\u2028 é 😀\t{b}" })).toBe(true);
    expect(validate({ any: "{a}{c}" })).toBe(false);
    expect(validate({ word: "héllo😀,x" })).toBe(true);
    for (const space of [" ", "\u00a0", "\u2028", "\ufeff", "\u3000", "\t"]) {
      expect(validate({ word: `a${space}b` }), JSON.stringify(space)).toBe(false);
      expect(validate({ none: space }), JSON.stringify(space)).toBe(true);
    }
    expect(validate({ none: "a" })).toBe(false);
    expect(validate({ mixed: "a,b" })).toBe(true);
  });

  it.each([
    ["(?=a)a", "#/properties/p/pattern", /lookahead and lookbehind cannot be matched in linear time/],
    ["(a)\\1", "#/properties/p/pattern", /backreferences cannot be matched in linear time/],
    ["[[:alpha:]]", "#/properties/p/pattern", /not a valid ECMAScript regular expression with the unicode flag/],
    ["\\a", "#/properties/p/pattern", /not a valid ECMAScript regular expression with the unicode flag/],
  ])("pattern %j is refused at %s with the reason", async (pattern, location, reason) => {
    const message = await refusal({ type: "object", properties: { p: { type: "string", pattern } } });
    expect(message).toContain(`at ${location} is refused`);
    expect(message).toMatch(reason);
  });

  it("a patternProperties key is checked too, with its location", async () => {
    const message = await refusal({ type: "object", properties: { o: { type: "object", patternProperties: { "(?<!x)y": true } } } });
    expect(message).toContain("at #/properties/o/patternProperties/(%3F%3C!x)y is refused");
  });
});

// Each bomb is refused by its bound, named in the error; without the bound it would not finish
// (9^10 YAML nodes, 10^10 argument locations) or would overflow the stack.
describe("size and shape bombs, bounded with a clear error", () => {
  it("a YAML alias bomb", async () => {
    const lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let level = 1; level < 10; level++) lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(", ")}]`);
    const result = await generate({ "schemas/bomb.yaml": `${lines.join("\n")}\nname: bomb\ninputSchema: {type: object}\n` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bomb\.yaml: not valid YAML: .*[Aa]lias/);
  });

  it("nesting thousands deep", async () => {
    const depth = 5000;
    const schema = `${'{"type": "object", "properties": {"a": '.repeat(depth)}{"type": "string"}${"}}".repeat(depth)}`;
    const result = await generate({ "schemas/deep.json": `{"name": "deep", "inputSchema": ${schema}}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/deep\.json#\/inputSchema[/a-z]*: nesting deeper than 256 levels/);
  });

  it("$ref fan-out that would expand to 10^10 argument locations", async () => {
    const defs: Record<string, unknown> = { l0: { type: "string", maxLength: 3 } };
    for (let level = 1; level <= 10; level++) {
      defs[`l${level}`] = {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { $ref: `#/$defs/l${level - 1}` }])),
      };
    }
    const result = await generate({ "schemas/fan.json": mcpTool("fan", { type: "object", properties: { root: { $ref: "#/$defs/l10" } }, $defs: defs }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /fan\.json: tool fan: its \$refs expand into more than 20000 argument locations beyond the 2 it writes out \(a reference fan-out/,
    );
  });

  it("modest sharing still generates, as linear-size code", async () => {
    const defs: Record<string, unknown> = { l0: { type: "string", maxLength: 3 } };
    for (let level = 1; level <= 3; level++) {
      defs[`l${level}`] = {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { $ref: `#/$defs/l${level - 1}` }])),
      };
    }
    const result = await generate({ "schemas/fan.json": mcpTool("fan", { type: "object", properties: { root: { $ref: "#/$defs/l3" } }, $defs: defs }) });
    expect(result.stderr).toBe("");
    const bytes = Object.values((project as TempProject).snapshot("generated/tools")).reduce((sum, text) => sum + text.length, 0);
    expect(bytes).toBeLessThan(256 * 1024);
  });
});

describe("features that turn data into code paths", () => {
  it("$data is refused where it would stand for a keyword's value", async () => {
    expect(await refusal({ type: "object", properties: { a: { type: "number" }, b: { maximum: { $data: "1/a" } } } })).toMatch(/does not compile/);
  });

  it("$data is refused as a keyword, with its location", async () => {
    expect(await refusal({ type: "object", properties: { b: { $data: "1/a" } } })).toMatch(
      /"\$data" at #\/properties\/b would let the arguments choose the rules/,
    );
  });
});

describe("the same engine at generation and at run time", () => {
  it("the shipped package's validators import the runtime's linear engine, never RegExp", async () => {
    project = new TempProject({ "schemas/t.json": mcpTool("t", { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]{3}$" } } }) });
    expect((await project.run("generate")).code).toBe(0);
    const validator = project.read("generated/tools/t.js");
    expect(validator).toContain(`from "../runtime/validate/pattern.js"`);
    const probe = `const { t } = await import(${JSON.stringify(`file://${path.join(project.dir, "generated/index.js")}`)});
const g = t.implement(() => "ran", { ledger: { append() {} } });
console.log(JSON.stringify([(await g.call('{"code":"EUR"}', { turn: "a" })).status, (await g.call('{"code":"eur"}', { turn: "b" })).status]));`;
    expect(JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }))).toEqual(["ok", "validation_failed"]);
  });
});
