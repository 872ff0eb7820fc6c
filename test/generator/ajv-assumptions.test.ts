// Every assumption toolguard makes about ajv's private state and printed output, in one place
// (generator/ajv/): each holds on the ajv toolguard pins, and each check stops generation with
// an AjvAssumptionError when it does not, rather than write a validator that is silently wrong.
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { Ajv2020Static } from "../../generator/ajv/ajv-2020-static.ts";
import { AJV_VERSION, AjvAssumptionError, rewrite } from "../../generator/ajv/assumption.ts";
import { createAjv, lintAjv, validateAgainstMeta } from "../../generator/ajv/instances.ts";
import { qualifySchemaPaths, SCHEMA_CONSTANT, standaloneToEsm } from "../../generator/ajv/printed-output.ts";
import { compileStateOf, disableDynamicTracking, holdsNoSchemas, knownKeywords, referencedFunctions, scopeOf } from "../../generator/ajv/private-state.ts";
import { pruneSchemaConstants } from "../../generator/ajv/schema-constants.ts";
import { countBranchErrors } from "../../generator/ajv/union-errors.ts";
import { stableNames } from "../../generator/ajv/stable-names.ts";
import { layOut } from "../../generator/ajv/layout.ts";
import { splitSharedFunctions } from "../../generator/ajv/shared-functions.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import packageJson from "../../package.json" with { type: "json" };

const standaloneCode = standaloneModule.default;
const tool = (inputSchema: object): ToolDescription => ({
  name: "t",
  description: "",
  inputSchema: inputSchema as JsonSchema,
  dialect: "2020-12",
  references: {},
  source: { file: "t.json", pointer: "" },
});
const RECURSIVE = {
  type: "object",
  properties: { item: { $ref: "#/$defs/node" } },
  $defs: { node: { type: "object", properties: { name: { enum: ["a", "b"] }, child: { $ref: "#/$defs/node" } } } },
};

/** ajv's standalone code for `schema`, compiled by a toolguard Ajv. */
function standalone(schema: object): { code: string; validate: ReturnType<ReturnType<typeof createAjv>["compile"]> } {
  const ajv = createAjv("2020-12", { validateSchema: false, meta: false });
  const validate = ajv.compile(schema);
  return { code: standaloneCode(ajv, validate), validate };
}

describe("ajv assumptions", () => {
  it("are checked against the ajv version toolguard pins", () => {
    expect(AJV_VERSION).toBe(packageJson.dependencies.ajv);
  });

  it("a rewrite that matches nothing is an AjvAssumptionError naming the assumption and the ajv version", () => {
    expect(rewrite("abc", /b/g, () => "x", "b appears")).toBe("axc");
    expect(() => rewrite("abc", /z/g, () => "x", "z appears")).toThrow(AjvAssumptionError);
    expect(() => rewrite("abc", /z/g, () => "x", "z appears")).toThrow(new RegExp(`ajv ${AJV_VERSION.replaceAll(".", "\\.")} no longer holds: z appears`));
  });

  it("1. ajv.RULES.keywords lists the known keywords", () => {
    expect(Object.hasOwn(knownKeywords(lintAjv("2020-12")), "unevaluatedProperties")).toBe(true);
    expect(Object.hasOwn(knownKeywords(lintAjv("draft-07")), "unevaluatedProperties")).toBe(false);
    expect(() => knownKeywords({} as never)).toThrow(AjvAssumptionError);
  });

  it("2. ajv.scope names generated values with counters in _names, _values and _scope", () => {
    const scope = scopeOf(createAjv("2020-12"));
    expect(Object.keys(scope).sort()).toEqual(expect.arrayContaining(["_names", "_scope", "_values"]));
    expect(() => scopeOf({ scope: { _names: {} } } as never)).toThrow(AjvAssumptionError);
    // The meta instance's scope, copied, names the fresh instance's values as if it had compiled the meta-schema.
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { a: { type: "string" } } };
    const fresh = createAjv("2020-12", { validateSchema: false });
    validateAgainstMeta(fresh, () => createAjv("2020-12"), "assumption test", schema);
    const reference = createAjv("2020-12");
    expect(standaloneCode(fresh, fresh.compile(schema))).toBe(standaloneCode(reference, reference.compile(schema)));
  });

  it("3. a compiled function's schemaEnv.root.refs maps each compiled $ref to its function's name", () => {
    const { code, validate } = standalone(RECURSIVE);
    const functions = referencedFunctions(validate);
    expect([...functions.values()]).toEqual(["#/$defs/node"]);
    expect(code).toContain(`function ${[...functions.keys()][0]}(`);
    expect(() => referencedFunctions((() => true) as never)).toThrow(AjvAssumptionError);
  });

  it("4. Ajv2020 sets opts.unevaluated and opts.dynamicRef, which Ajv2020Static turns off", () => {
    expect(new Ajv2020Static().opts).toMatchObject({ unevaluated: false, dynamicRef: false });
    expect(() => disableDynamicTracking({})).toThrow(AjvAssumptionError);
  });

  it('5-8. standalone code opens with "use strict", requires helpers by .default, indexes uniqueItems in `indicesN = {}` and exports its entry twice', () => {
    const { code } = standalone({
      type: "object",
      properties: { s: { type: "string", maxLength: 3 }, u: { type: "array", uniqueItems: true, items: { type: "string" } } },
    });
    expect(code.startsWith('"use strict";\n')).toBe(true);
    expect(code).toContain('require("ajv/dist/runtime/ucs2length").default');
    expect(code).toMatch(/\b(let|const) indices\d* = \{\};/);
    const esm = standaloneToEsm(code, tool({}));
    expect(esm.imports).toEqual(['import { ucs2length } from "../runtime/validate/ajv-runtime.js";']);
    expect(esm.code).not.toMatch(/require\(|"use strict"|export /);
    expect(esm.code).toMatch(/\bindices\d* = Object\.create\(null\);/);
    expect(esm.entry).toMatch(/^validate\d+$/);
    expect(() => standaloneToEsm(code.replace('"use strict";\n', ""), tool({}))).toThrow(/opens with "use strict"/);
    expect(() => standaloneToEsm(code.replace(/ = \{\};/, " = new Map();"), tool({}))).toThrow(/indicesN = \{\}/);
    expect(() => standaloneToEsm(code.replace(/^export default .*$/m, ""), tool({}))).toThrow(/exporting its entry function/);
  });

  it("9. each function compiled for a $ref starts a line, and error schema paths are plain strings", () => {
    const { code, validate } = standalone(RECURSIVE);
    const functions = referencedFunctions(validate);
    const qualified = qualifySchemaPaths(code, functions);
    expect(qualified).toContain('schemaPath:"#/$defs/node/properties/name/enum"');
    expect(() => qualifySchemaPaths(code.replace(/^function /gm, "const f = function "), functions)).toThrow(AjvAssumptionError);
  });

  it("10. schema values are declared one per line as `const schemaN = <JSON>;`", () => {
    const { code } = standalone({ type: "object", properties: { e: { enum: ["a", "b"] } } });
    expect(code.match(SCHEMA_CONSTANT)?.length).toBeGreaterThan(0);
    expect(pruneSchemaConstants(code)).not.toBe(code);
    expect(() => pruneSchemaConstants(code.replace(/^const (schema\d+) = /gm, "var $1 = "))).toThrow(AjvAssumptionError);
  });

  it("11. anyOf and oneOf are code keywords tracking errors in cxt.errsCount and compiling branches through cxt.subschema", () => {
    const { code } = standalone({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(code).toMatch(/branchErrors: errors - _errs\d*, branchStarts: \[branchStart\d*, branchStart\d*\]/);
    expect(() => countBranchErrors({ getKeyword: () => ({ keyword: "anyOf" }) } as never)).toThrow(AjvAssumptionError);
  });

  it("11. inside a function, a numbered name is declared before use and used only in its block; no nested function", () => {
    const sources = { entry: "validate0", functions: new Map<string, string>(), schemas: new Map<string, string>() };
    const ok = "function validate0(data){\nif(a){\nconst err3 = 1;\nf(err3);\n}\nif(b){\nconst err7 = 2;\nf(err7);\n}\n}\n";
    // Sibling blocks share the lowest free number; the entry gets its word.
    expect(stableNames(ok, sources).code).toBe(
      "function validate_arguments(data){\nif(a){\nconst err0 = 1;\nf(err0);\n}\nif(b){\nconst err0 = 2;\nf(err0);\n}\n}\n",
    );
    for (const broken of [
      "function validate0(data){\nif(a){\nconst err3 = 1;\n}\nf(err3);\n}\n",
      "function validate0(data){\nf(err3);\nconst err3 = 1;\n}\n",
      "function validate0(data){\nfunction inner(){}\n}\n",
    ])
      expect(() => stableNames(broken, sources)).toThrow(AjvAssumptionError);
  });

  it("12. the printed code's braces balance outside strings, comments and regular expressions", () => {
    expect(layOut('function f(){\nif(x === "}"){\ny(/}/g);\n}\n}')).toContain('function f(){\n  if(x === "}"){\n    y(/}/g);\n  }\n}');
    expect(() => layOut("function f(){\nif(x){\n}")).toThrow(AjvAssumptionError);
    expect(() => layOut("}\n")).toThrow(AjvAssumptionError);
  });

  it("13. the laid-out validator's top level holds only comments, const and function declarations, and a function's .evaluated", () => {
    const shared = "function validate_node(data){\nif(data){\nvalidate_node(data.child);\n}\n}";
    const ok = `const func_x = f;\n\n// A comment.\n${shared}\n\nfunction validate_arguments(data){\nreturn validate_node(data) && func_x(data);\n}`;
    const split = splitSharedFunctions(ok, "validate_arguments", []);
    expect(split.shared.map((module) => module.file)).toEqual([expect.stringMatching(/^node-[0-9a-f]{10}\.js$/)]);
    expect(split.shared[0]?.code).toContain(`// A comment.\n${shared}\nexport { validate_node };\n`);
    expect(split.imports).toEqual([`import { validate_node } from "./shared/${split.shared[0]?.file}";`]);
    expect(split.code).toBe("const func_x = f;\nfunction validate_arguments(data){\nreturn validate_node(data) && func_x(data);\n}");
    // ajv prints `validateN.evaluated = {...};` after a function under unevaluated*: it moves with
    // the function (the name fuzz and data-refs tests met it in real output).
    const evaluated = `${shared}\nvalidate_node.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};`;
    const withEvaluated = splitSharedFunctions(ok.replace(shared, evaluated), "validate_arguments", []);
    expect(withEvaluated.shared[0]?.code).toContain(`${evaluated}\nexport { validate_node };\n`);
    expect(withEvaluated.code).toBe(split.code);
    for (const broken of [
      `${ok}\nvalidate_node.other = {};`,
      `${ok}\nfunc_x.evaluated = {};`,
      `${ok}\nvalidate_none.evaluated = {};`,
      `if(x){\n}\n${ok}`,
      ok.replace("}\n\nfunction validate_arguments", "\n\nfunction validate_arguments"),
    ])
      expect(() => splitSharedFunctions(broken, "validate_arguments", [])).toThrow(AjvAssumptionError);
    expect(() => splitSharedFunctions(ok, "validate_other", [])).toThrow(AjvAssumptionError);
  });

  it("13. a call through a cycle's wrapper becomes a call of the function it wraps; any other use keeps the wrapper", () => {
    const wrapped = [
      "const wrapper_0a1b2c = {validate: validate_node};",
      "",
      "const wrapper_3d4e5f = {validate: validate_node};",
      "",
      'function validate_node(data){\nif(!(wrapper_0a1b2c.validate(data.child, {x:"wrapper_0a1b2c.validate"}))){\nf(wrapper_0a1b2c.validate.errors, wrapper_3d4e5f);\n}\n}',
      "",
      "function validate_arguments(data){\nreturn validate_node(data);\n}",
    ].join("\n");
    const split = splitSharedFunctions(wrapped, "validate_arguments", []);
    const module = split.shared[0]?.code ?? "";
    // The schema text ("...") is not code: it stays as written.
    // (A wrapper a module keeps is named again from its value there: moduleNames.)
    const kept = /^const (wrapper_[0-9a-f]{6}) = \{validate: validate_node\};$/m.exec(module)?.[1];
    expect(module).toContain(`if(!(validate_node(data.child, {x:"wrapper_0a1b2c.validate"}))){\nf(validate_node.errors, ${kept});`);
    // Used bare, the other wrapper is a value the code passes on: kept, the one the calls went through is gone.
    expect(module.match(/^const wrapper_/gm)).toHaveLength(1);
    expect(split.code).toBe("function validate_arguments(data){\nreturn validate_node(data);\n}");
  });

  it("14. an Ajv keeps what it compiled in _cache, refs and schemas, all empty at creation without meta-schemas", () => {
    const ajv = createAjv("2020-12", { validateSchema: false, meta: false });
    expect(holdsNoSchemas(ajv)).toBe(true);
    ajv.compile(RECURSIVE);
    expect(compileStateOf(ajv)._cache.size).toBeGreaterThan(0);
    expect(() => compileStateOf({ refs: {}, schemas: {} } as never)).toThrow(AjvAssumptionError);
  });
});
