// Errors from `$ref`'d definitions and unions, explained from the validator toolguard generates:
// the hints must be the definition's own (ajv reports such errors relative to the definition); a
// union of `$ref` branches is reported once, not branch by branch (the branches' errors carry no
// path under the union's); and where one property tells the branches apart, the model gets the
// errors of the branch it named, or what that property may be.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildHintTable } from "../../generator/emit/error-hints.ts";
import { explainSchemaErrors } from "../../templates/runtime/explain/explain.ts";
import type { AjvError } from "../../templates/runtime/contract/tool-spec.ts";
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
    expect(await explain(schema, { name: "alpha", item: { name: "gama" } })).toEqual([
      { path: "/item/name", rule: "enum", message: 'got string "gama"; must be one of ["gamma", "delta"] — did you mean "gamma"?' },
    ]);
  });

  it("name the definition's accepted keys, also two levels down", async () => {
    const [error] = await explain(schema, { item: { next: { item: { nmae: "gamma" } } } });
    expect(error).toEqual({
      path: "/item/next/item/nmae",
      rule: "additionalProperties",
      message: 'unknown field "nmae"; did you mean "name"? Rename it. This object accepts only name, next',
    });
  });
});

describe("a union of $ref branches", () => {
  // Not discriminated: `creation` does not require its `type` (a discriminated union is below).
  const rule = (kind: string, extra: Record<string, unknown> = {}) => ({
    type: "object",
    ...(kind === "creation" ? {} : { required: ["type"] }),
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
    const errors = await explain(
      { ...schema, properties: { ...schema.properties, count: { type: "integer" } }, required: ["count"] },
      { rules: [{ type: "delete" }] },
    );
    expect(errors.map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: "/count", rule: "required" },
      { path: "/rules/0", rule: "anyOf" },
    ]);
  });
});

describe("a discriminated union", () => {
  const pattern = {
    type: "object",
    required: ["pattern"],
    properties: { pattern: { type: "string", minLength: 1 }, negate: { type: "boolean" } },
    additionalProperties: false,
  };
  const schema = {
    type: "object",
    properties: { rules: { type: "array", items: { $ref: "#/$defs/rule" } } },
    $defs: {
      rule: { oneOf: [{ $ref: "#/$defs/creation" }, { $ref: "#/$defs/pattern" }, { $ref: "#/$defs/required-reviews" }] },
      creation: { type: "object", required: ["type"], properties: { type: { enum: ["creation"] } } },
      pattern: {
        type: "object",
        required: ["type", "parameters"],
        properties: { type: { const: "branch_name_pattern" }, parameters: { $ref: "#/$defs/pattern-parameters" } },
      },
      "pattern-parameters": { ...pattern, properties: { ...pattern.properties, next: { $ref: "#/$defs/rule" } } },
      "required-reviews": {
        type: "object",
        required: ["type", "count"],
        properties: { type: { enum: ["required_reviews", "reviews"] }, count: { type: "integer", minimum: 1 } },
      },
    },
  };

  it("reports the errors of the branch the value names, with that branch's hints", async () => {
    const errors = await explain(schema, {
      rules: [
        { type: "branch_name_pattern", parameters: { pattern: "", negate: "no", extra: 1 } },
        { type: "reviews", count: 0 },
      ],
    });
    expect(errors).toEqual([
      {
        path: "/rules/0/parameters/extra",
        rule: "additionalProperties",
        message: 'unknown field "extra"; remove it. This object accepts only pattern, negate, next',
      },
      { path: "/rules/0/parameters/negate", rule: "type", message: 'expected boolean, got string "no"; send a JSON boolean (true or false), without quotes' },
      { path: "/rules/0/parameters/pattern", rule: "minLength", message: 'got string ""; must be at least 1 characters long' },
      { path: "/rules/1/count", rule: "minimum", message: "got integer 0; must be >= 1" },
    ]);
  });

  it("says what the discriminator may be when the value names no branch", async () => {
    expect(await explain(schema, { rules: [{ type: "Creation" }, { kind: "creation" }, "creation"] })).toEqual([
      {
        path: "/rules/0/type",
        rule: "enum",
        message:
          'got string "Creation"; "type" says what kind of object this is and must be one of ["creation", "branch_name_pattern", "required_reviews", "reviews"] — did you mean "creation"?',
      },
      {
        path: "/rules/1/type",
        rule: "required",
        message:
          'missing required field "type", which says what kind of object this is: one of ["creation", "branch_name_pattern", "required_reviews", "reviews"]',
      },
      { path: "/rules/2", rule: "anyOf", message: 'got string "creation"; it matches none of the allowed shapes' },
    ]);
  });

  it("works on inline branches too (where the validator runs the oneOf as an anyOf)", async () => {
    const inline = {
      type: "object",
      properties: {
        shape: {
          oneOf: [
            { type: "object", required: ["kind", "r"], properties: { kind: { const: "circle" }, r: { type: "number" } } },
            { type: "object", required: ["kind", "side"], properties: { kind: { const: "square" }, side: { type: "number" } } },
          ],
        },
      },
    };
    expect(await explain(inline, { shape: { kind: "square" } })).toEqual([
      { path: "/shape/side", rule: "required", message: 'missing required field "side"; if you do not know its value, ask the user instead of guessing' },
    ]);
    // A tag beside fields only another kind has: either may be wrong, and the message says both.
    expect(await explain(inline, { shape: { kind: "square", r: 2 } })).toEqual([
      {
        path: "/shape/kind",
        rule: "enum",
        message:
          'got string "square"; the other fields are those of "circle", not of "square": send "circle" if that is the kind you meant, else keep "square" and add the fields it requires ("side")',
      },
    ]);
  });

  it("never leaves a failed value without an error", async () => {
    const { validate } = await emitAndLoad(schema);
    const hints = buildHintTable(toolOf(schema));
    const rule = fc.record(
      {
        type: fc.constantFrom("creation", "branch_name_pattern", "reviews", "Reviews", "x", 3),
        count: fc.constantFrom(0, 2, "2"),
        parameters: fc.record({ pattern: fc.constantFrom("", "p", 1), negate: fc.constantFrom(true, "no") }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 3 }), (rules) => {
        const value = { rules };
        if (validate(value)) return;
        const errors = explainSchemaErrors((validate.errors ?? []) as readonly AjvError[], value, hints, 50);
        const failed = new Set((validate.errors ?? []).map((error) => error.instancePath.split("/").slice(0, 3).join("/")));
        const explained = new Set(errors.map((error) => error.path.split("/").slice(0, 3).join("/")));
        expect([...failed].filter((at) => at.startsWith("/rules/")).every((at) => explained.has(at))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
