// The meta-schema check runs on one shared Ajv per dialect, and each tool's fresh Ajv starts
// from the scope that check leaves behind: the validators must be byte-identical to those of an
// Ajv that validated its schema itself, and an invalid schema must fail with ajv's own message.
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { compileValidator } from "../../generator/emit/validator.ts";
import { createAjv, validateAgainstMeta } from "../../generator/ajv/instances.ts";

const standalone = standaloneModule.default;
const SCHEMAS: Record<string, { dialect: "2020-12" | "draft-07"; schema: Record<string, unknown> }> = {
  "strings, lengths and formats": {
    dialect: "2020-12",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: { type: "string", maxLength: 3, format: "date" }, b: { type: "array", uniqueItems: true } },
      required: ["a"],
    },
  },
  "local refs and unevaluated properties": {
    dialect: "2020-12",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { n: { type: "integer" } },
      properties: { n: { $ref: "#/$defs/n" } },
      unevaluatedProperties: false,
    },
  },
  "draft-07 definitions": {
    dialect: "draft-07",
    schema: { $schema: "http://json-schema.org/draft-07/schema#", definitions: { s: { type: "string", pattern: "^x" } }, items: { $ref: "#/definitions/s" } },
  },
};

describe("meta-schema validation on a shared instance", () => {
  it.each(Object.entries(SCHEMAS))("emits the same validator as a self-validating Ajv: %s", (_name, { dialect, schema }) => {
    const reference = createAjv(dialect);
    const expected = standalone(reference, reference.compile(structuredClone(schema)));
    for (let run = 0; run < 2; run++) {
      const fresh = createAjv(dialect, { validateSchema: false });
      const copy = structuredClone(schema);
      validateAgainstMeta(fresh, () => createAjv(dialect), `${dialect} ${String(copy.$schema)}`, copy);
      expect(standalone(fresh, fresh.compile(copy))).toBe(expected);
    }
  });

  it.each(Object.entries(SCHEMAS))("emits the same validator from an Ajv without meta-schemas: %s", (_name, { dialect, schema }) => {
    const reference = createAjv(dialect);
    const expected = standalone(reference, reference.compile(structuredClone(schema)));
    const lean = createAjv(dialect, { validateSchema: false, meta: false });
    const copy = structuredClone(schema);
    validateAgainstMeta(lean, () => createAjv(dialect), `${dialect} ${String(copy.$schema)}`, copy);
    expect(standalone(lean, lean.compile(copy))).toBe(expected);
  });

  it.each([
    ["2020-12", "https://json-schema.org/draft/2020-12/schema"],
    ["draft-07", "http://json-schema.org/draft-07/schema#"],
  ] as const)("keeps the meta-schemas when a $ref reaches one (%s)", (dialect, meta) => {
    const inputSchema = { $schema: meta, type: "object", properties: { schema: { $ref: meta } } };
    const tool = { name: "describe_schema", description: "", inputSchema, dialect, references: {}, source: { file: "describe-schema.json", pointer: "" } };
    const compiled = compileValidator(tool);
    expect(compiled.code).toContain(`function ${compiled.entry}(`);
  });

  it("refuses a schema that fails its meta-schema with ajv's own message", () => {
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", minProperties: -1 };
    let expected = "";
    try {
      createAjv("2020-12").compile(structuredClone(schema));
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(expected).toMatch(/^schema is invalid: /);
    expect(() =>
      validateAgainstMeta(createAjv("2020-12", { validateSchema: false }), () => createAjv("2020-12"), "2020-12 x", structuredClone(schema)),
    ).toThrow(expected);
  });
});
