// ajv's standalone code declares each compiled schema as a constant but reads only a few values
// from it; the constants are cut down to what the code reads, and nothing the code reads changes.
import { describe, expect, it } from "vitest";
import { pruneSchemaConstants } from "../../generator/ajv/schema-constants.ts";
import { emitAndLoad } from "../hostile/load-validator.ts";

const SCHEMA = JSON.stringify({
  type: "object",
  description: "long text",
  properties: {
    a: { type: ["string", "null"], description: "x" },
    "x-y": { enum: ["p", "q"] },
    b: { oneOf: [{ type: "string" }, { enum: [1, 2], title: "t" }] },
  },
});
const declare = (use: string): string => `const schema31 = ${SCHEMA};\nconst func0 = Object.prototype.hasOwnProperty;\n${use}\n`;
const constant = (code: string): unknown => JSON.parse(/^const schema31 = (.*);$/m.exec(code)?.[1] ?? "null");

describe("pruning ajv's schema constants", () => {
  it.each<[string, string, unknown]>([
    ["a constant-key chain keeps the value it reaches", "f(schema31.properties.a.type);", { properties: { a: { type: ["string", "null"] } } }],
    ["quoted keys are followed", 'f(schema31.properties["x-y"].enum);', { properties: { "x-y": { enum: ["p", "q"] } } }],
    ["array indices keep earlier items as null", "f(schema31.properties.b.oneOf[1].enum);", { properties: { b: { oneOf: [null, { enum: [1, 2] }] } } }],
    [
      "a variable index keeps the whole value before it",
      "f(schema31.properties.b.oneOf[i0]);",
      { properties: { b: { oneOf: [{ type: "string" }, { enum: [1, 2], title: "t" }] } } },
    ],
    [
      "a key the value does not own keeps the value whole",
      "f(schema31.properties.a.type.length, schema31.properties.hasOwnProperty(k));",
      { properties: JSON.parse(SCHEMA).properties },
    ],
    // The chain is the accesses right after the name: later ones in the text are other reads.
    ["a chain ends where its accesses do", "f(schema31.properties, data.a.type);", { properties: JSON.parse(SCHEMA).properties }],
    ["several chains are merged", "f(schema31.properties.a.type); g(schema31.type);", { type: "object", properties: { a: { type: ["string", "null"] } } }],
    ["a bare use keeps everything", "f(schema31);", JSON.parse(SCHEMA)],
    // A string is schema text (an enum value, a property name), never a read of the constant (issue 32).
    ["the name inside a string or as a property is not a use", 'f("schema31", data.schema31, /* schema31 */ schema31.type);', { type: "object" }],
  ])("%s", (_what, use, expected) => {
    expect(constant(pruneSchemaConstants(declare(use)))).toEqual(expected);
  });

  it("ignores a property of the same name and keeps a __proto__ key as data", () => {
    const code = `const schema31 = {"properties":{"__proto__":{"enum":[1]},"z":{}}};\nf(data.schema31, schema31.properties.__proto__.enum);\n`;
    expect(pruneSchemaConstants(code)).toBe(
      `const schema31 = {"properties":{"__proto__":{"enum":[1]}}};\nf(data.schema31, schema31.properties.__proto__.enum);\n`,
    );
  });

  it("drops a constant nothing reads", () => {
    expect(pruneSchemaConstants(`const schema32 = {"type":"object"};\nconst schema31 = {"enum":[1]};\nf(schema31.enum);\n`)).toBe(
      `const schema31 = {"enum":[1]};\nf(schema31.enum);\n`,
    );
  });

  // The uses of every constant are found in one pass over the code: each name keeps its own
  // reads, whatever other constant's name it begins with or follows.
  it("tells constants whose names share a prefix apart", () => {
    const code = [
      `const schema3 = {"enum":[1],"type":"integer"};`,
      `const schema31 = {"enum":[2],"type":"integer"};`,
      `const schema310 = {"enum":[3],"type":"integer"};`,
      `f(schema31.enum, schema310.type, schema3.enum);`,
      "",
    ].join("\n");
    expect(pruneSchemaConstants(code)).toBe(
      [`const schema3 = {"enum":[1]};`, `const schema31 = {"enum":[2]};`, `const schema310 = {"type":"integer"};`, code.split("\n")[3], ""].join("\n"),
    );
  });

  it("leaves the rest of the code as it was", () => {
    const code = declare("f(schema31.type);");
    expect(pruneSchemaConstants(code).split("\n").slice(1)).toEqual(code.split("\n").slice(1));
  });

  it("the emitted validator no longer carries the schema's text, and reports the same params", async () => {
    const { code, validate } = await emitAndLoad({
      type: "object",
      properties: {
        kind: { type: "string", enum: ["a", "b"], description: "A very long description of the kind." },
        n: { type: ["integer", "null"], description: "Another description." },
      },
    });
    expect(code).not.toContain("description");
    expect(validate({ kind: "c", n: "x" })).toBe(false);
    expect(validate.errors?.map((error) => [error.keyword, (error as { params?: unknown }).params])).toEqual([
      ["enum", { allowedValues: ["a", "b"] }],
      ["type", { type: ["integer", "null"] }],
    ]);
  });
});
