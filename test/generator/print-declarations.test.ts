// A tool's declarations are laid out without TypeScript (emit/layout/declaration-layout.ts), and must
// come out exactly as TypeScript's printer prints them: the same bytes as before, for every
// shape json-schema-to-typescript writes. Emitting a tool must not load TypeScript at all.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { layOutDeclarations } from "../../generator/emit/layout/declaration-layout.ts";
import { printDeclarations, printWithTypeScript } from "../../generator/emit/print-declarations.ts";
import { emitToolModule } from "../../generator/emit/tool-module.ts";
import { emitArgumentTypes } from "../../generator/emit/types.ts";
import { compileValidator } from "../../generator/emit/validator.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import { SUITE } from "../conformance/run-suite.ts";

function tool(inputSchema: Record<string, unknown>, extra: Partial<ToolDescription> = {}): ToolDescription {
  return {
    name: "t_x",
    description: "A tool.",
    inputSchema,
    dialect: "2020-12",
    references: {},
    source: { file: "t.json", pointer: "" },
    ...extra,
  } as unknown as ToolDescription;
}

/** The declaration text print-declarations.ts is given for a tool: template and json-schema-to-typescript's output. */
async function rawDeclarations(described: ToolDescription): Promise<string> {
  return emitToolModule(described, await emitArgumentTypes(described), compileValidator(described)).dts;
}

function expectAsTypeScriptPrints(raw: string): void {
  const laidOut = layOutDeclarations(raw);
  expect(laidOut, raw).toBeDefined();
  expect(laidOut).toBe(printWithTypeScript(raw));
}

const cases: [string, string][] = [
  ["empty interface, tuple and type literal", "export interface A {\n\n}\nexport type B = []\nexport type C = {}\nexport interface D {\nb: [[], {}]\n}"],
  ["union of tuples, as json-schema-to-typescript writes maxItems", "export interface A {\nm?: []|[string]|[string, string]\n}"],
  ["rest element, parenthesised union, arrays of arrays", 'export interface A {\nl: [B, ...(B)[]]\nc: ("USD" | "EUR")[][]\n}'],
  ["literals", 'export type A = -1 | 1e+21 | 0.5 | true | null | "x"'],
  [
    "non-ASCII and control characters in strings, which the printer escapes",
    'export type A = "μ" | "a\\u0000b" | "\\u00001" | "\\t\\u0085\\u2028" | "\\ud800"\nexport interface B {\n"ключ"?: string\n}',
  ],
  [
    "multi-line JSDoc at every depth, with indented and blank lines",
    "export interface A {\n/**\n * a\n *    indented\n *\n */\na: {\n/**\n * deeper\n * still\n */\nb: string\n}\n}",
  ],
  ["a single-line JSDoc on the same line", "/** x */ export type A = string"],
  ["index signatures and extends", "export interface A extends B, C {\n[k: string]: unknown | undefined\n}"],
  ["a reference's resolved arguments", 'export type R = Omit<A, "x"> & { x?: Array<Omit<NonNullable<A["x"]>[number], "y"> & { "z": string }> };'],
  [
    "imports and the tool's constant",
    'import type { ToolDefinition } from "../runtime/contract/api.js";\n/** Does it. */\nexport declare const tX: ToolDefinition<TXArgs, TXArgs, never>;',
  ],
];

describe("laying out declarations without TypeScript", () => {
  it.each(cases)("prints %s as TypeScript's printer does", (_name, raw) => expectAsTypeScriptPrints(raw));

  it("prints the example schemas' declarations as TypeScript's printer does", async () => {
    const { readSchemaSet } = await import("../../generator/read/index.ts");
    const read = await readSchemaSet(path.join(import.meta.dirname, "../../schemas"), { allowNetwork: false, strict: false });
    expect(read.tools.length).toBeGreaterThan(3);
    for (const described of read.tools) expectAsTypeScriptPrints(await rawDeclarations(described));
  });

  it("prints the JSON Schema test suite's schemas as TypeScript's printer does", async () => {
    const dir = path.join(SUITE, "tests/draft2020-12");
    let printed = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      for (const { schema } of JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { schema: unknown }[]) {
        if (schema === null || typeof schema !== "object") continue;
        const raw = await rawDeclarations(tool(schema as Record<string, unknown>)).catch(() => undefined);
        if (raw === undefined) continue;
        expectAsTypeScriptPrints(raw);
        printed++;
      }
    }
    expect(printed).toBeGreaterThan(200);
  });

  it("prints random schemas' declarations as TypeScript's printer does", async () => {
    const text = fc.oneof(fc.string(), fc.constantFrom("", "a\n  b", "*/", "x\n\n y\t", "é\u2028\u0085", "trail  "));
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.record({ type: fc.constantFrom("string", "number", "boolean", "null"), description: text }, { requiredKeys: ["type"] }),
        fc.record({ enum: fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
        fc.record(
          {
            type: fc.constant("object"),
            properties: fc.dictionary(fc.string(), tie("node"), { maxKeys: 3 }),
            additionalProperties: fc.oneof(fc.boolean(), tie("node")),
            description: text,
          },
          { requiredKeys: ["type"] },
        ),
        fc.record(
          { type: fc.constant("array"), items: tie("node"), minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 2, max: 3 }) },
          { requiredKeys: ["type", "items"] },
        ),
        fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(node, async (schema) => {
        const raw = await rawDeclarations(tool({ type: "object", properties: { a: schema } })).catch(() => undefined);
        if (raw !== undefined) expectAsTypeScriptPrints(raw);
      }),
      { numRuns: 150 },
    );
  });

  it("leaves anything else to TypeScript's printer", () => {
    const raw = "export type F = (a: string) => void\nexport interface A {\nm(): void\n}";
    expect(layOutDeclarations(raw)).toBeUndefined();
    expect(printDeclarations(raw)).toBe(printWithTypeScript(raw).replace(/^ {4}/gm, "  "));
  });

  it("emits a tool without loading TypeScript", () => {
    // A fresh process: the test runner itself has TypeScript loaded.
    const script = `
      import { createRequire } from "node:module";
      import { useToolTemplate } from "./generator/emit/tool-template.ts";
      const template = JSON.parse(process.argv[1]);
      useToolTemplate(template);
      const { emitTool } = await import("./generator/emit/tool-files.ts");
      const files = await emitTool({ name: "t_x", description: "A tool.", dialect: "2020-12", references: {}, source: { file: "t.json", pointer: "" },
        inputSchema: { type: "object", properties: { a: { type: "array", items: { type: "string" }, maxItems: 2, description: "Two.\\nLines." } }, required: ["a"] } });
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /node_modules[\\/](typescript|ts-morph|@ts-morph)[\\/]/.test(file));
      console.log(JSON.stringify({ loaded, dts: files.find((file) => file.path.endsWith(".d.ts")).content }));`;
    const template = JSON.stringify(
      JSON.parse(
        execFileSync(
          process.execPath,
          ["--input-type=module", "-e", `import { toolTemplate } from "./generator/emit/tool-template.ts"; console.log(JSON.stringify(toolTemplate()));`],
          { cwd: path.join(import.meta.dirname, "../.."), encoding: "utf8" },
        ),
      ),
    );
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script, template], { cwd: path.join(import.meta.dirname, "../.."), encoding: "utf8" }),
    ) as { loaded: string[]; dts: string };
    expect(out.loaded).toEqual([]);
    expect(out.dts).toContain("  a: [\n  ] | [\n    string\n  ] | [\n    string,\n    string\n  ];\n  [k: string]: unknown | undefined;\n}");
  });
});
