// Generation under hostile schemas, round two (issue 15, findings 12, 13, 18 and 19): nested
// `$id`, formats that were silently not asserted, operation servers on another origin, and
// names that break JavaScript, TypeScript, Windows or HTTP, and examples too large to send.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.ts";
import { TempProject, mcpTool } from "../helpers/temp-project.ts";
import { emitAndLoad } from "./load-validator.ts";

let project: TempProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

async function generate(files: Record<string, unknown>) {
  project = new TempProject(files);
  return project.run("generate");
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

describe("a nested $id is refused, not dropped", () => {
  // Under the inner $id, `#/$defs/a` means the inner definition (maximum 10), not the root's.
  const schema = {
    type: "object",
    $defs: { a: { type: "integer" } },
    properties: {
      x: { $id: "https://example.com/inner", $defs: { a: { type: "integer", maximum: 10 } }, $ref: "#/$defs/a" },
    },
  };

  it("in the emitter", async () => {
    expect(await refusal(schema)).toMatch(/the \$id "https:\/\/example\.com\/inner" at #\/properties\/x changes what the references inside it point to/);
  });

  it("through generate, after bundling", async () => {
    const result = await generate({ "schemas/t.json": mcpTool("t", schema) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/\$id .* changes what the references inside it point to/);
  });

  it("a nested $id with no reference inside changes nothing and is accepted", async () => {
    const { validate } = await emitAndLoad({ type: "object", properties: { x: { $id: "https://example.com/x", type: "integer", maximum: 10 } } });
    expect(validate({ x: 11 })).toBe(false);
  });
});

describe("every format in a tool file is asserted or refused", () => {
  it.each<[string, unknown, unknown]>([
    ["int32", 2147483647, 99_999_999_999],
    ["int64", 9007199254740991, 1.5],
    ["float", 1.5, 1e39],
    ["double", 1.5, undefined],
    ["byte", "aGVsbG8=", "hello!"],
    ["regex", "^a+$", "(unclosed"],
    ["uri-reference", "../a?b#c", "a b"],
    ["iri", "https://例え.jp/パス", "no scheme"],
    ["iri-reference", "/パス?q", "a\u0000b"],
    ["uri-template", "/users/{id}{?q,page}", "/users/{id"],
    ["idn-email", "用户@例子.广告", "no-at-sign"],
    ["idn-hostname", "例子.广告", "a b.com"],
    ["json-pointer", "/a/~0b/~1c", "a/b"],
    ["relative-json-pointer", "1/a", "/a"],
  ])("%s", async (format, good, bad) => {
    const type = typeof good === "number" ? "number" : "string";
    const { validate } = await emitAndLoad({ type: "object", properties: { v: { type, format } } });
    expect(validate({ v: good })).toBe(true);
    if (bad !== undefined) expect(validate({ v: bad })).toBe(false);
  });

  // Unknown formats are annotations, warned of at read time, refused only with `unknownFormats:
  // "refuse"` (test/generator/unknown-formats.test.ts; issue 32).
  it.each(["color", "phone"])("the non-standard format %s is an annotation and checks nothing", async (format) => {
    const { validate } = await emitAndLoad({ type: "object", properties: { v: { type: "string", format } } });
    expect(validate({ v: "anything at all" })).toBe(true);
    expect(validate({ v: 1 })).toBe(false);
  });

  it.each(["binary", "password"])("%s describes any string and stays an annotation", async (format) => {
    const { validate } = await emitAndLoad({ type: "object", properties: { v: { type: "string", format } } });
    expect(validate({ v: "anything at all" })).toBe(true);
  });
});

const openapi = (extra: { servers?: unknown; operation?: Record<string, unknown>; parameters?: unknown[] } = {}) => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com/v1" }],
  paths: {
    "/items": {
      post: {
        operationId: "createItem",
        ...(extra.servers ? { servers: extra.servers } : {}),
        ...(extra.parameters ? { parameters: extra.parameters } : {}),
        ...extra.operation,
        requestBody: { content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
});

describe("operation servers on another origin do not receive the document's credentials", () => {
  async function toolsOf(document: unknown): Promise<{ code: number; stdout: string; stderr: string; hasTool: boolean }> {
    const result = await generate({ "schemas/api.json": document });
    return { ...result, hasTool: existsSync(path.join(project?.dir ?? "", "generated/tools/create-item.js")) };
  }

  it.each([
    ["plain http on another host", [{ url: "http://evil.example.net" }]],
    ["https on another host", [{ url: "https://other.example.com/v1" }]],
    ["plain http on the same host", [{ url: "http://api.example.com/v1" }]],
  ])("%s: the operation is skipped, and says why", async (_what, servers) => {
    const result = await toolsOf(openapi({ servers }));
    expect(result.hasTool).toBe(false);
    expect(result.stdout + result.stderr).toMatch(/createItem.*not on an origin of the document's servers|not on an origin of the document's servers/s);
  });

  it("the same origin with another path is kept, and so is an explicit opt-in", async () => {
    expect((await toolsOf(openapi({ servers: [{ url: "https://api.example.com/v2" }] }))).hasTool).toBe(true);
    project?.remove();
    expect((await toolsOf(openapi({ servers: [{ url: "https://uploads.example.net" }], operation: { "x-toolguard-trust-servers": true } }))).hasTool).toBe(
      true,
    );
  });
});

describe("names", () => {
  it.each(["__proto__", "constructor", "toString"])("a tool named %s is refused", async (name) => {
    const result = await generate({ "schemas/t.json": mcpTool(name) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/is a name every JavaScript object already has/);
  });

  it("a1b and a1B would both declare A1BArgs: refused", async () => {
    const result = await generate({ "schemas/t.json": [mcpTool("a1b"), mcpTool("a1B")] });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/has the same type name as tool "a1/);
  });

  it.each(["con", "aux", "nul", "COM1", "lpt9"])("a tool named %s does not write a Windows device file", async (name) => {
    const result = await generate({ "schemas/t.json": mcpTool(name) });
    expect(result.code).toBe(0);
    const stem = name.toLowerCase();
    expect(existsSync(path.join(project?.dir ?? "", `generated/tools/${stem}.js`))).toBe(false);
    expect(existsSync(path.join(project?.dir ?? "", `generated/tools/${stem}-tool.js`))).toBe(true);
  });

  it.each(["X-Evil\r\nHost: other", "X Trace", "X-Trace:"])(
    "header parameter name %j: its operation is never generated, and the summary says why",
    async (name) => {
      const result = await generate({ "schemas/api.json": openapi({ parameters: [{ name, in: "header", schema: { type: "string" } }] }) });
      // One operation's mistake skips that operation (docs/openapi.md, "What is skipped"); --strict refuses it.
      expect(result.stdout).toMatch(/createItem .*is not a valid HTTP token/);
      expect(existsSync(path.join(project?.dir ?? "", "generated/tools/create-item.js"))).toBe(false);
    },
  );

  it("an example over 16 KiB is refused: it would be sent to the model with every request", async () => {
    expect(await refusal({ type: "object", properties: { v: { type: "string", examples: ["x".repeat(17_000)] } } })).toMatch(
      /examples are sent to the model with every request, and the limit is 16384/,
    );
    const { validate } = await emitAndLoad({ type: "object", properties: { v: { type: "string", examples: ["x".repeat(1000)] } } });
    expect(validate({ v: "a" })).toBe(true);
  });
});
