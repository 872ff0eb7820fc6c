// toolguard compiles what a schema means, not what it says: disjoint `oneOf`s become `anyOf`s,
// branches that only name a type become a `type` list, and 2020-12 schemas without
// `unevaluated*` or `$dynamicRef` skip ajv's evaluated-property bookkeeping. None of it may
// change a verdict: the random schemas below are checked value by value against ajv's own
// compile of the schema as written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldCombinators } from "../../generator/emit/fold-combinators.ts";
import { needsDynamicScope } from "../../generator/ajv/ajv-2020-static.ts";
import { discriminatorOf } from "../../generator/emit/union-branches.ts";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { Dialect } from "../../generator/ir.ts";
import { emitAndLoad } from "../hostile/load-validator.ts";

const string = { type: "string" };
const integer = { type: "integer" };
/** An object branch whose required `kind`/`k` property allows `values`. */
const tagged = (name: string, values: Record<string, unknown>) => ({
  type: "object",
  required: [name],
  properties: { [name]: values },
});
const abc = tagged("kind", { enum: ["a", "b"] });
const c = tagged("kind", { const: "c" });
const one = tagged("k", { const: 1 });
const two = tagged("k", { const: 2 });

describe("folding combinators", () => {
  it.each<[string, object, object]>([
    ["anyOf of bare types becomes a type list", { anyOf: [string, { type: "null", description: "none" }] }, { type: ["string", "null"] }],
    ["a disjoint oneOf of bare types becomes a type list", { description: "d", oneOf: [string, integer] }, { description: "d", type: ["string", "integer"] }],
    ["nested unions fold from the inside out", { anyOf: [{ oneOf: [string, integer] }, { type: "null" }] }, { type: ["string", "integer", "null"] }],
    [
      "a disjoint oneOf with richer branches becomes anyOf",
      { oneOf: [string, { type: "object", properties: { a: string } }] },
      { anyOf: [string, { type: "object", properties: { a: string } }] },
    ],
    ["objects told apart by a required property's values are disjoint", { oneOf: [abc, c] }, { anyOf: [abc, c] }],
    [
      "branches are read through their local $ref",
      {
        $defs: { a: one, b: two },
        oneOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }],
      },
      {
        $defs: { a: one, b: two },
        anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }],
      },
    ],
  ])("%s", (_what, schema, folded) => {
    expect(foldCombinators(schema)).toEqual(folded);
  });

  it.each<[string, object]>([
    ["integer lies inside number", { oneOf: [{ type: "number" }, integer] }],
    ["the same type twice", { oneOf: [string, { type: "string", maxLength: 3 }] }],
    ["a branch without a type", { oneOf: [string, { minimum: 1 }] }],
    [
      "a discriminator value shared",
      {
        oneOf: [
          {
            type: "object",
            required: ["k"],
            properties: { k: { enum: [1, 2] } },
          },
          { type: "object", required: ["k"], properties: { k: { const: 2 } } },
        ],
      },
    ],
    [
      "a discriminator neither requires",
      {
        oneOf: [
          { type: "object", properties: { k: { const: 1 } } },
          { type: "object", properties: { k: { const: 2 } } },
        ],
      },
    ],
    [
      "a discriminator on branches that also accept non-objects",
      {
        oneOf: [
          {
            type: ["object", "null"],
            required: ["k"],
            properties: { k: { const: 1 } },
          },
          {
            type: ["object", "null"],
            required: ["k"],
            properties: { k: { const: 2 } },
          },
        ],
      },
    ],
    [
      "a $ref into a branch",
      {
        properties: {
          a: { oneOf: [string, integer] },
          b: { $ref: "#/properties/a/oneOf/0" },
        },
      },
    ],
  ])("leaves a oneOf alone when %s", (_what, schema) => {
    expect(foldCombinators(schema)).toEqual(schema);
  });

  it("keeps a union beside an existing type, and a oneOf beside an existing anyOf", () => {
    const typed = {
      type: ["string", "integer", "null"],
      anyOf: [string, integer],
    };
    expect(foldCombinators(typed)).toEqual(typed);
    const both = {
      anyOf: [{ type: "object" }, { type: "array" }],
      oneOf: [
        { type: "object", minProperties: 1 },
        { type: "array", minItems: 1 },
      ],
    };
    expect(foldCombinators(both)).toEqual({
      type: ["object", "array"],
      anyOf: both.oneOf,
    });
  });

  it("does not modify its input", () => {
    const schema = { properties: { a: { oneOf: [string, integer] } } };
    const copy = structuredClone(schema);
    foldCombinators(schema);
    expect(schema).toEqual(copy);
  });
});

describe("finding a discriminator", () => {
  const kind = (values: unknown, required = ["kind"]) => ({
    type: "object",
    required,
    properties: {
      kind: Array.isArray(values) ? { enum: values } : { const: values },
    },
  });
  const defs = {
    $defs: { a: kind("a"), b: { $ref: "#/$defs/b2" }, b2: kind(["b", "bee"]) },
  };

  it("names the property and each branch's values, through $ref chains", () => {
    expect(discriminatorOf([{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }, kind("c")], defs)).toEqual({
      property: "kind",
      branches: [{ values: ["a"] }, { values: ["b", "bee"] }, { values: ["c"] }],
    });
  });

  it.each<[string, Record<string, unknown>[]]>([
    ["a branch does not require it", [kind("a"), kind("b", [])]],
    ["two branches share a value", [kind(["a", "b"]), kind("b")]],
    ["a value is not a string", [kind("a"), kind(2)]],
    ["a branch accepts more than objects", [kind("a"), { ...kind("b"), type: ["object", "null"] }]],
    ["there is one branch", [kind("a")]],
  ])("finds none when %s", (_what, branches) => {
    expect(discriminatorOf(branches, {})).toBeUndefined();
  });
});

describe("the validator toolguard compiles", () => {
  it("fails a folded union with one type error at the union's own location, where its hints are", async () => {
    const { validate } = await emitAndLoad({
      type: "object",
      properties: {
        title: { oneOf: [string, integer], description: "The title." },
      },
    });
    expect(validate({ title: true })).toBe(false);
    expect(validate.errors).toEqual([
      expect.objectContaining({
        keyword: "type",
        instancePath: "/title",
        schemaPath: "#/properties/title/type",
        params: { type: ["string", "integer"] },
      }),
    ]);
    expect(validate({ title: 3 }) && validate({ title: "x" })).toBe(true);
  });

  it("leaves out ajv's 2020-12 bookkeeping unless the schema needs it", async () => {
    const plain = await emitAndLoad({
      type: "object",
      properties: { a: { anyOf: [string, { type: "object" }] } },
    });
    expect(plain.code).not.toMatch(/dynamicAnchors|\.evaluated/);
    const tracked = await emitAndLoad({
      type: "object",
      anyOf: [{ properties: { a: string } }, { properties: { b: string } }],
      unevaluatedProperties: false,
    });
    expect(tracked.code).toMatch(/\.evaluated/);
    // Both branches pass, so both properties were evaluated: stopping at the first branch would
    // leave `b` unevaluated and refuse a valid value.
    expect(tracked.validate({ a: "x", b: "y" })).toBe(true);
    expect(tracked.validate({ a: "x", c: "y" })).toBe(false);
  });

  it.each(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$recursiveRef"])(
    "keeps the bookkeeping for %s anywhere in the schema",
    (keyword) => {
      expect(
        needsDynamicScope({
          properties: { a: { items: [{ [keyword]: false }] } },
        }),
      ).toBe(true);
      expect(needsDynamicScope({ properties: { a: { items: [{ not: false }] } } })).toBe(false);
    },
  );
});

// Random schemas built from the shapes the rewrites look for (few types, few discriminator
// values, so that branches often overlap), and values that hit them.
const TYPES = ["string", "number", "integer", "null", "object", "array"] as const;
const KINDS = ["a", "b", 1] as const;

function schemas(): fc.Arbitrary<Record<string, unknown>> {
  const type = fc.constantFrom("number", "integer", "string", "null", "number", "integer", "object");
  const kind = fc.oneof(
    fc.constantFrom(...KINDS).map((value) => ({ const: value })),
    fc.uniqueArray(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 2 }).map((values) => ({ enum: values })),
  );
  const { schema } = fc.letrec<{
    schema: Record<string, unknown>;
    branch: Record<string, unknown>;
  }>((tie) => {
    const discriminated = fc.record({
      type: fc.constantFrom("object", "object", ["object", "null"]),
      required: fc.constantFrom(["kind"], []),
      properties: fc.record({ kind, x: tie("schema") }),
    });
    return {
      branch: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        type.map((name) => ({ type: name })),
        fc.uniqueArray(type, { minLength: 1, maxLength: 3 }).map((names) => ({ type: names, description: "d" })),
        type.map((name) =>
          name === "string"
            ? { type: name, minLength: 2 }
            : name === "object"
              ? { type: name, minProperties: 1 }
              : name === "null"
                ? { type: name }
                : { type: name, minimum: 2 },
        ),
        discriminated,
        discriminated,
        fc.constantFrom({ $ref: "#/$defs/d0" }, { $ref: "#/$defs/d1" }),
        tie("schema"),
      ),
      schema: fc.oneof(
        { depthSize: "small", withCrossShrink: true, maxDepth: 3 },
        fc
          .record({
            keyword: fc.constantFrom("anyOf", "oneOf", "oneOf"),
            branches: fc.array(tie("branch"), { minLength: 1, maxLength: 4 }),
            sibling: fc.constantFrom(undefined, undefined, "type", "description"),
          })
          .map(({ keyword, branches, sibling }) => ({
            [keyword]: branches,
            ...(sibling === "type" ? { type: ["string", "object", "integer"] } : sibling === "description" ? { description: "d" } : {}),
          })),
        fc.constantFrom(...TYPES).map((name) => ({ type: name })),
        fc.record({ type: fc.constant("array"), items: tie("branch") }),
      ),
    };
  });
  const definitions = fc.record({
    d0: fc.constantFrom(
      {
        type: "object",
        required: ["kind"],
        properties: { kind: { const: "a" } },
      },
      { type: "integer" },
    ),
    d1: fc.constantFrom(
      {
        type: "object",
        required: ["kind"],
        properties: { kind: { enum: ["b", 1] } },
      },
      { type: "number" },
      { type: ["string", "null"] },
    ),
  });
  return fc.tuple(schema, definitions).map(([root, $defs]) => ({ ...root, $defs }));
}

function values(): fc.Arbitrary<unknown> {
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("", "abc", 0, 1, 2.5, 3, true, null),
      fc.record({ kind: fc.constantFrom(...KINDS, "z"), x: tie("value") }, { requiredKeys: [] }),
      fc.array(tie("value"), { maxLength: 3 }),
    ),
  }));
  return value;
}

describe.each<Dialect>(["2020-12", "draft-07"])("random unions (%s): the optimised validator agrees with ajv on the schema as written", (dialect) => {
  it("on every value", () => {
    fc.assert(
      fc.property(schemas(), fc.array(values(), { minLength: 8, maxLength: 8 }), (written, instances) => {
        const schema =
          dialect === "draft-07"
            ? {
                ...renameDefs(written),
                $schema: "http://json-schema.org/draft-07/schema#",
              }
            : written;
        const compile = (optimise: boolean) => {
          const { ajv, compiled } = prepareCompile(dialect, structuredClone(schema), optimise);
          return ajv.compile(compiled);
        };
        const asWritten = compile(false);
        const optimised = compile(true);
        for (const instance of instances) expect(optimised(instance), JSON.stringify({ schema, instance })).toBe(asWritten(instance));
      }),
      { numRuns: 500 },
    );
  });
});

/** Draft-07 keeps its definitions under `definitions`. */
function renameDefs(schema: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$defs"', '"definitions"').replaceAll("#/$defs/", "#/definitions/")) as Record<string, unknown>;
}
