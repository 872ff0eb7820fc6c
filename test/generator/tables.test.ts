// The build-time tables the guard reads on every call: where a string may be coerced (only
// where the schema's type is unambiguous and excludes strings) and what an error at each
// schema location can tell the model.
import { describe, expect, it } from "vitest";
import { buildCoercionTable } from "../../generator/emit/coercion-table.ts";
import { buildHintTable } from "../../generator/emit/error-hints.ts";
import type { ToolDescription } from "../../generator/ir.ts";

function tool(inputSchema: Record<string, unknown>): ToolDescription {
  return {
    name: "t",
    description: "",
    inputSchema: { type: "object", ...inputSchema },
    dialect: "2020-12",
    references: {},
    source: { file: "t.json", pointer: "" },
  };
}

describe("coercion table", () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      "number, integer and boolean properties",
      { properties: { a: { type: "number" }, b: { type: "integer" }, c: { type: "boolean" }, d: { type: "string" } } },
      { "/a": "number", "/b": "integer", "/c": "boolean" },
    ],
    ["nullable scalars", { properties: { a: { type: ["number", "null"] } } }, { "/a": "number" }],
    ["never where a string is also accepted", { properties: { a: { type: ["number", "string"] } } }, {}],
    ["never under anyOf or oneOf", { properties: { a: { anyOf: [{ type: "number" }, { type: "string" }] }, b: { oneOf: [{ type: "integer" }] } } }, {}],
    ["never under if/then/else or not", { properties: { a: { if: { type: "number" }, then: { type: "number" } } } }, {}],
    ["never for additionalProperties", { additionalProperties: { type: "number" } }, {}],
    [
      "array items as *",
      { properties: { xs: { type: "array", items: { type: "object", properties: { n: { type: "integer" } } } } } },
      { "/xs/*/n": "integer" },
    ],
    [
      "tuple positions",
      { properties: { p: { type: "array", prefixItems: [{ type: "number" }, { type: "boolean" }] } } },
      { "/p/0": "number", "/p/1": "boolean" },
    ],
    [
      "through local $refs and allOf",
      { properties: { m: { $ref: "#/$defs/money" }, x: { allOf: [{ type: "number" }, { minimum: 0 }] } }, $defs: { money: { type: "number" } } },
      { "/m": "number", "/x": "number" },
    ],
    ["integer wins when allOf narrows number", { properties: { x: { type: "number", allOf: [{ type: "integer" }] } } }, { "/x": "integer" }],
    [
      "recursion stops at the repeated $ref",
      {
        properties: { n: { $ref: "#/$defs/node" } },
        $defs: { node: { type: "object", properties: { v: { type: "number" }, next: { $ref: "#/$defs/node" } } } },
      },
      { "/n/v": "number" },
    ],
    ["property names are escaped as JSON Pointer tokens", { properties: { "a/b~c": { type: "number" } } }, { "/a~1b~0c": "number" }],
  ])("%s", (_what, schema, expected) => {
    expect(buildCoercionTable(tool(schema))).toEqual(expected);
  });
});

describe("hint table", () => {
  it("lists small enums with their near misses", () => {
    const hints = buildHintTable(tool({ properties: { currency: { type: "string", enum: ["USD", "EUR", "GBP"] } } }));
    expect(hints["#/properties/currency"]).toMatchObject({
      types: ["string"],
      allowed: ["USD", "EUR", "GBP"],
      nearMisses: { usd: "USD", eur: "EUR", gbp: "GBP" },
      optional: true,
    });
    // A listed set is compared against directly at run time: no deletion table.
    expect(hints["#/properties/currency"]?.spellings).toBeUndefined();
  });

  it("gives one example instead of listing a large enum", () => {
    const values = Array.from({ length: 40 }, (_, index) => `v${index}`);
    const hint = buildHintTable(tool({ properties: { v: { enum: values } } }))["#/properties/v"];
    expect(hint?.allowed).toBeUndefined();
    expect(hint?.example).toBe("v0");
    // Too many to list: each value's normal form, and it with one character deleted, for far near misses.
    expect(hint?.spellings).toMatchObject({ v12: "v12", v1: ["v1", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v21", "v31"] });
  });

  it("leaves out near misses that two values share", () => {
    const hint = buildHintTable(tool({ properties: { s: { enum: ["on-hold", "on_hold", "open"] } } }))["#/properties/s"];
    expect(hint?.nearMisses).toEqual({ open: "open" });
  });

  it.each([
    [{ type: "string", examples: ["SKU-1"] }, "SKU-1"],
    [{ type: "string", default: "x" }, "x"],
    [{ type: "string", format: "date" }, "2026-01-31"],
    // Issue 17: a documented string example written as JSON text (GitHub's `"\"0\""`) is read as the string.
    [{ type: "string", examples: ['"0"'] }, "0"],
  ])("picks a canonical example for %j", (schema, example) => {
    expect(buildHintTable(tool({ properties: { f: schema } }))["#/properties/f"]?.example).toEqual(example);
  });

  it.each([[{ type: "integer", minimum: 5 }], [{ type: "number", exclusiveMinimum: 0 }], [{ type: "boolean" }]])(
    "makes up no example from the type or bounds of %j (issue 17: `1` names a wrong issue)",
    (schema) => {
      expect(buildHintTable(tool({ properties: { f: schema } }))["#/properties/f"]?.example).toBeUndefined();
    },
  );

  it("describes required properties and lists the allowed keys of a closed object", () => {
    const hint = buildHintTable(
      tool({
        properties: { a: { type: "string", description: "The A.", examples: ["a1"] }, b: { type: "number" } },
        required: ["a"],
        additionalProperties: false,
      }),
    )["#"];
    expect(hint).toMatchObject({ properties: ["a", "b"], propertyDescriptions: { a: "The A." }, propertyExamples: { a: "a1" } });
  });

  it("keys locations the way ajv reports schema paths", () => {
    const hints = buildHintTable(tool({ properties: { "a b/c": { type: "number" } }, $defs: { "line/item": { type: "integer" } } }));
    expect(Object.keys(hints)).toEqual(["#", "#/properties/a%20b~1c", "#/$defs/line~1item"]);
  });
});

describe("type names", () => {
  it.each(["create_invoice", "orgs_get_2d02209b", "x9y_z", "a1b2c3"])("declares exactly the name the client refers to for %s", async (name) => {
    const { emitArgumentTypes, argsTypeName } = await import("../../generator/emit/types.ts");
    const described = { ...tool({ properties: { q: { type: "string" } } }), name };
    expect(await emitArgumentTypes(described)).toContain(`export interface ${argsTypeName(described)} {`);
  });
});

describe("examples in hints", () => {
  it.each([
    [{ type: "integer", examples: ["42"] }, undefined],
    [{ type: "string", format: "date", examples: ["31/01/2026", "2026-02-01"] }, "2026-02-01"],
    // Too many values to list, so an example is shown: not the default, which is not allowed.
    [{ type: "string", enum: Array.from({ length: 20 }, (_, index) => `v${index}`), default: "zz" }, "v0"],
    [{ type: "number", minimum: 10, example: 3 }, undefined],
    [{ type: "string", pattern: "^[A-Z]{3}$", examples: ["usd", "EUR"] }, "EUR"],
  ])("passes over documented examples that do not fit %j", (schema, example) => {
    expect(buildHintTable(tool({ properties: { f: schema } }))["#/properties/f"]?.example).toEqual(example);
  });
});
