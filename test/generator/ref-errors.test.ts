// Errors from `$ref`'d definitions, explained from the validator toolguard generates: the
// hints must be the definition's own (ajv reports such errors relative to the definition), and
// a union of `$ref` branches must be reported once, not branch by branch (the branches' errors
// carry no path under the union's).
import { describe, expect, it } from "vitest";
import { buildHintTable } from "../../generator/emit/error-hints.ts";
import { explainSchemaErrors } from "../../templates/runtime/explain.ts";
import type { AjvError } from "../../templates/runtime/tool-spec.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";

async function explain(schema: Record<string, unknown>, value: unknown): Promise<{ path: string; rule: string; message: string }[]> {
  const { validate } = await emitAndLoad(schema);
  expect(validate(value)).toBe(false);
  return explainSchemaErrors((validate.errors ?? []) as readonly AjvError[], value, buildHintTable(toolOf(schema)), 20);
}

describe("errors inside a $ref'd definition", () => {
  // `item` refers to itself through `leaf`, so ajv compiles it as a function of its own.
  const schema = {
    type: "object",
    properties: { name: { enum: ["alpha", "beta"] }, item: { $ref: "#/$defs/item" } },
    $defs: {
      item: { type: "object", properties: { name: { enum: ["gamma", "delta"] }, next: { $ref: "#/$defs/leaf" } }, additionalProperties: false },
      leaf: { type: "object", properties: { item: { $ref: "#/$defs/item" } } },
    },
  };

  it("are explained with the definition's hints, not the root's at the same relative path", async () => {
    expect(await explain(schema, { name: "alpha", item: { name: "gama" } })).toEqual([{ path: "/item/name", rule: "enum", message: 'got string "gama"; must be one of ["gamma", "delta"]' }]);
  });

  it("name the definition's accepted keys, also two levels down", async () => {
    const [error] = await explain(schema, { item: { next: { item: { nmae: "gamma" } } } });
    expect(error).toEqual({ path: "/item/next/item/nmae", rule: "additionalProperties", message: 'unknown field "nmae". This object accepts only name, next' });
  });
});

describe("a union of $ref branches", () => {
  const rule = (kind: string, extra: Record<string, unknown> = {}) => ({
    type: "object",
    required: ["type"],
    properties: { type: { enum: [kind] }, ...extra, nested: { $ref: "#/$defs/rules" } },
  });
  const schema = {
    type: "object",
    properties: { rules: { $ref: "#/$defs/rules" } },
    $defs: {
      rules: { type: "array", items: { $ref: "#/$defs/rule" } },
      rule: { oneOf: [{ $ref: "#/$defs/creation" }, { $ref: "#/$defs/deletion" }, { $ref: "#/$defs/pattern" }] },
      creation: rule("creation"),
      deletion: rule("deletion"),
      pattern: rule("pattern", { parameters: { type: "object", required: ["pattern"], properties: { pattern: { type: "string" } } } }),
    },
  };

  it("is reported once per failing value, without each branch's contradicting demands", async () => {
    const errors = await explain(schema, { rules: [{ type: "creation" }, { type: "delete" }, { type: 3 }] });
    expect(errors.map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: "/rules/1", rule: "anyOf" },
      { path: "/rules/2", rule: "anyOf" },
    ]);
  });

  it("keeps errors beside the union that are not from its branches", async () => {
    const errors = await explain({ ...schema, properties: { ...schema.properties, count: { type: "integer" } }, required: ["count"] }, { rules: [{ type: "delete" }] });
    expect(errors.map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: "/count", rule: "required" },
      { path: "/rules/0", rule: "anyOf" },
    ]);
  });
});
