// OpenAPI schema dialects -> 2020-12, one case per rule in docs/openapi.md: the translated
// schema is compared whole, compiled by ajv in strict mode, and run against data.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import type { SchemaDialect } from "../../generator/read/openapi/schema-dialect.ts";
import { createSchemaTranslator } from "../../generator/read/openapi/translate-schema.ts";
import { Untranslatable } from "../../generator/read/openapi/untranslatable.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { ANNOTATION_FORMATS } from "../../generator/ajv/instances.ts";

type Case = {
  given: unknown;
  dialect?: SchemaDialect;
  components?: Record<string, unknown>;
  want: unknown;
  valid?: unknown[];
  invalid?: unknown[];
};

function translate(
  given: unknown,
  dialect: SchemaDialect = "oas30",
  components: Record<string, unknown> = {},
): { schema: unknown; defs: Record<string, unknown> } {
  const document = { components: { schemas: components }, subject: given };
  const translator = createSchemaTranslator(document, dialect);
  const schema = translator.translate("/subject");
  return { schema, defs: { ...translator.defs } };
}

function compile(schema: unknown, defs: Record<string, unknown>) {
  // Strict as the generator's ajv is (generator/ajv/instances.ts): a type-specific keyword needs no `type`.
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    allErrors: true,
    formats: Object.fromEntries(KEPT_FORMATS.map((name) => [name, true])),
  });
  const root = typeof schema === "object" && schema !== null ? { ...schema, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) } : schema;
  return ajv.compile(root as object);
}

const cases: [string, Case][] = [
  [
    "3.0 nullable adds null to the type",
    {
      given: { type: "string", nullable: true, maxLength: 3 },
      want: { type: ["string", "null"], maxLength: 3 },
      valid: ["abc", null],
      invalid: ["abcd", 1],
    },
  ],
  [
    "3.0 nullable with enum adds null to the enum",
    {
      given: { type: "string", enum: ["a", "b"], nullable: true },
      want: { type: ["string", "null"], enum: ["a", "b", null] },
      valid: ["a", null],
      invalid: ["c"],
    },
  ],
  [
    "3.0 nullable beside an applicator wraps the schema in anyOf with null",
    {
      given: { allOf: [{ type: "object", properties: { a: { type: "string" } } }], nullable: true, description: "maybe" },
      want: { description: "maybe", anyOf: [{ allOf: [{ type: "object", properties: { a: { type: "string" } } }] }, { type: "null" }] },
      valid: [null, { a: "x" }],
      invalid: [{ a: 1 }],
    },
  ],
  [
    "nullable: false changes nothing",
    {
      given: { type: "integer", nullable: false },
      want: { type: "integer" },
      invalid: [null],
    },
  ],
  [
    "3.0 boolean exclusive bounds become numeric ones",
    {
      given: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
      want: { type: "number", maximum: 10, exclusiveMinimum: 0 },
      valid: [0.5, 10],
      invalid: [0, 10.5],
    },
  ],
  [
    "3.1 numeric exclusive bounds stay",
    {
      given: { type: "number", exclusiveMinimum: 0 },
      dialect: "2020-12",
      want: { type: "number", exclusiveMinimum: 0 },
      invalid: [0],
    },
  ],
  [
    "int32 becomes integer bounds",
    {
      given: { type: "integer", format: "int32" },
      want: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
      valid: [2147483647],
      invalid: [2147483648],
    },
  ],
  [
    "int64 is bounded to the integers JavaScript holds exactly",
    {
      given: { type: "integer", format: "int64", minimum: 1 },
      want: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      invalid: [2 ** 53],
    },
  ],
  [
    "float and double only say number",
    {
      given: { type: "number", format: "double" },
      want: { type: "number" },
    },
  ],
  [
    "byte becomes a base64 pattern",
    {
      given: { type: "string", format: "byte" },
      valid: ["aGk="],
      invalid: ["not base64!"],
      want: { type: "string", pattern: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", contentEncoding: "base64" },
    },
  ],
  [
    "standard formats stay",
    {
      given: { type: "string", format: "date-time" },
      want: { type: "string", format: "date-time" },
    },
  ],
  [
    "unknown formats are dropped with a comment",
    {
      given: { type: "string", format: "repo.nwo" },
      want: { type: "string", $comment: 'format "repo.nwo" is not checked by toolguard' },
    },
  ],
  [
    "example becomes examples; x- extensions, xml and externalDocs go",
    {
      given: { type: "string", example: "Rex", "x-go-type": "string", xml: { name: "n" }, externalDocs: { url: "https://example.com" } },
      want: { type: "string", examples: ["Rex"] },
    },
  ],
  [
    "readOnly properties leave properties and required; writeOnly stays",
    {
      given: {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" }, password: { type: "string", writeOnly: true } },
      },
      want: { type: "object", required: ["name"], properties: { name: { type: "string" }, password: { type: "string", writeOnly: true } } },
      valid: [{ name: "a" }],
      invalid: [{ id: 1 }],
    },
  ],
  [
    "readOnly under additionalProperties: false stays defined, so sending it is still allowed",
    {
      given: {
        type: "object",
        additionalProperties: false,
        required: ["id", "name"],
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
      },
      want: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
      },
      valid: [{ name: "a" }, { id: 1, name: "a" }],
      invalid: [{ id: 1 }],
    },
  ],
  [
    "readOnly through $ref and across allOf members",
    {
      components: { Id: { type: "integer", readOnly: true }, Base: { type: "object", properties: { id: { $ref: "#/components/schemas/Id" } } } },
      given: { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", required: ["id", "name"], properties: { name: { type: "string" } } }] },
      want: { allOf: [{ $ref: "#/$defs/Base" }, { type: "object", required: ["name"], properties: { name: { type: "string" } } }] },
      valid: [{ name: "a" }],
    },
  ],
  [
    "discriminator without mapping: branch names become the property's values",
    {
      components: {
        Cat: { type: "object", properties: { kind: { type: "string" }, name: { type: "string" } } },
        Dog: { type: "object", properties: { kind: { type: "string" }, name: { type: "string" } } },
      },
      given: { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind" } },
      want: {
        oneOf: [
          { $ref: "#/$defs/Cat", type: "object", properties: { kind: { enum: ["Cat"] } } },
          { $ref: "#/$defs/Dog", type: "object", properties: { kind: { enum: ["Dog"] } } },
        ],
      },
      // Without the discriminator's values both branches would match and oneOf would fail; without
      // `kind` both still match, as written.
      valid: [{ kind: "Cat", name: "Tom" }],
      invalid: [{ kind: "cow" }, { name: "Tom" }],
    },
  ],
  [
    "discriminator without mapping where each branch says its value (OpenAI's chat messages): the branch's value, not the schema name",
    {
      dialect: "2020-12",
      components: {
        UserMessage: { type: "object", properties: { role: { type: "string", enum: ["user"] }, content: { type: "string" } }, required: ["role", "content"] },
        Role: { type: "string", const: "assistant" },
        Base: { type: "object", properties: { content: { type: "string" } } },
        AssistantMessage: { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: { role: { $ref: "#/components/schemas/Role" } } }] },
        Untyped: { properties: { role: { enum: ["tool"] } } },
      },
      given: {
        oneOf: [{ $ref: "#/components/schemas/UserMessage" }, { $ref: "#/components/schemas/AssistantMessage" }, { $ref: "#/components/schemas/Untyped" }],
        discriminator: { propertyName: "role" },
      },
      want: {
        oneOf: [
          { $ref: "#/$defs/UserMessage", type: "object", properties: { role: { enum: ["user"] } }, required: ["role"] },
          // Nothing the branch does not assert: it does not require `role`, so neither does its pin.
          { $ref: "#/$defs/AssistantMessage", type: "object", properties: { role: { enum: ["assistant"] } } },
          // Not declared an object: not narrowed to one; its own value is restated, without a
          // `type`, so a value that is no object passes it as written (Cohere's chat messages).
          { $ref: "#/$defs/Untyped", properties: { role: { enum: ["tool"] } } },
        ],
      },
      valid: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }, { role: "tool" }],
      invalid: [{ role: "UserMessage", content: "hi" }, { role: "user" }],
    },
  ],
  [
    "discriminator with mapping (by $ref and by name)",
    {
      components: { Cat: { type: "object" }, Dog: { type: "object" } },
      given: {
        anyOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat", kitten: "Cat", dog: "Dog" } },
      },
      want: {
        anyOf: [
          { $ref: "#/$defs/Cat", type: "object", properties: { kind: { enum: ["cat", "kitten"] } }, required: ["kind"] },
          { $ref: "#/$defs/Dog", type: "object", properties: { kind: { enum: ["dog"] } }, required: ["kind"] },
        ],
      },
      valid: [{ kind: "kitten" }],
      invalid: [{ kind: "Cat" }],
    },
  ],
  [
    "discriminator on inline branches is dropped; oneOf still asserts",
    {
      given: { oneOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }], discriminator: { propertyName: "a" } },
      want: { oneOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }] },
    },
  ],
  [
    "recursive $ref stays a reference",
    {
      components: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } },
      given: { $ref: "#/components/schemas/Node" },
      want: { $ref: "#/$defs/Node" },
      valid: [{ next: { next: {} } }],
      invalid: [{ next: 1 }],
    },
  ],
  [
    // A type-specific keyword asserts only on values of its type: it never implies the type
    // (issue 32: a string was refused by `items` beside `oneOf: [array, string]`).
    "keywords without a type apply to their type only, and imply none",
    {
      given: { properties: { a: { maxLength: 2 } } },
      want: { properties: { a: { maxLength: 2 } } },
      valid: [{ a: "ab" }, { a: 5 }, "text", 3, null, []],
      invalid: [{ a: "abc" }],
    },
  ],
  [
    "untyped items beside a union of array and string keeps the string",
    {
      given: { items: { type: "string" }, oneOf: [{ type: "array" }, { type: "string" }], description: "one or many" },
      want: { items: { type: "string" }, oneOf: [{ type: "array" }, { type: "string" }], description: "one or many" },
      valid: ["one", ["one", "two"], []],
      invalid: [[1], 5, {}],
    },
  ],
  [
    "untyped format, minLength and minimum assert on their own types only",
    {
      given: { format: "date", minLength: 10, minimum: 1 },
      want: { format: "date", minLength: 10, minimum: 1 },
      valid: ["2026-12-01", 5, true],
      invalid: ["short", 0],
    },
  ],
  [
    "required names missing from properties are defined as true",
    {
      given: { type: "object", properties: { a: {} }, anyOf: [{ required: ["a"] }, { required: ["b"] }] },
      want: {
        type: "object",
        properties: { a: {} },
        anyOf: [
          { required: ["a"], properties: { a: true } },
          { required: ["b"], properties: { b: true } },
        ],
      },
      valid: [{ b: 1 }],
      invalid: [{}],
    },
  ],
  [
    "keywords that never apply to the declared type go, with a comment",
    {
      given: { type: "integer", minLength: 3 },
      want: { type: "integer", $comment: "minLength never apply to type integer and were left out" },
    },
  ],
  [
    "3.1 type unions split into one branch per type",
    {
      given: { type: ["string", "number"], maxLength: 3, minimum: 0, description: "d" },
      dialect: "2020-12",
      want: {
        description: "d",
        anyOf: [
          { type: "string", maxLength: 3 },
          { type: "number", minimum: 0 },
        ],
      },
      valid: ["abc", 5],
      invalid: ["abcd", -1, true],
    },
  ],
  [
    "3.1 examples and boolean schemas stay",
    {
      given: { type: "object", properties: { a: true, b: false }, examples: [{ a: 1 }] },
      dialect: "2020-12",
      want: { type: "object", properties: { a: true, b: false }, examples: [{ a: 1 }] },
    },
  ],
  [
    "draft-07 $schema: tuple items become prefixItems",
    {
      given: { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false, minItems: 1 },
      dialect: "2020-12",
      want: { type: "array", prefixItems: [{ type: "string" }], items: false, minItems: 1 },
      valid: [["a"]],
      invalid: [["a", "b"]],
    },
  ],
  [
    "identity escapes Unicode mode refuses are written plainly (DigitalOcean's tag names)",
    {
      given: { type: "string", pattern: "^[a-zA-Z0-9_\\-\\:]+$" },
      want: { type: "string", pattern: "^[a-zA-Z0-9_\\-:]+$" },
      valid: ["web-1:eu"],
      invalid: ["web 1", "a\\b"],
    },
  ],
];

describe("translateSchema", () => {
  it.each(cases)("%s", (_name, { given, dialect, components, want, valid = [], invalid = [] }) => {
    const { schema, defs } = translate(given, dialect, components);
    expect(schema).toEqual(want);
    const validate = compile(schema, defs);
    for (const data of valid) expect(validate(data), JSON.stringify(data)).toBe(true);
    for (const data of invalid) expect(validate(data), JSON.stringify(data)).toBe(false);
  });
});

const refusals: [string, { given: unknown; dialect?: SchemaDialect; reason: RegExp; pointer: string }][] = [
  [
    "an unknown keyword may be a misspelt assertion",
    { given: { type: "string", maxlength: 3 }, reason: /unknown keyword `maxlength`/, pointer: "/subject/maxlength" },
  ],
  [
    "3.0 assertions beside $ref are ambiguous",
    { given: { $ref: "#/components/schemas/A", maxLength: 3 }, reason: /ignores `maxLength` beside \$ref/, pointer: "/subject/maxLength" },
  ],
  [
    "an unknown dialect",
    { given: { $schema: "https://example.com/my-dialect" }, dialect: "2020-12", reason: /unknown schema dialect/, pointer: "/subject/$schema" },
  ],
  [
    "a dangling $ref",
    { given: { type: "object", properties: { a: { $ref: "#/components/schemas/Nope" } } }, reason: /points at nothing/, pointer: "/subject/properties/a/$ref" },
  ],
  ["$id changes reference resolution", { given: { $id: "https://example.com/a" }, dialect: "2020-12", reason: /\$id/, pointer: "/subject/$id" }],
  [
    "a pattern ajv cannot compile",
    { given: { type: "string", pattern: "^{a}$" }, reason: /not a valid Unicode regular expression/, pointer: "/subject/pattern" },
  ],
  [
    "required but forbidden",
    { given: { type: "object", properties: {}, required: ["a"], additionalProperties: false }, reason: /no request can satisfy/, pointer: "/subject/required" },
  ],
  ["draft-07 tuple syntax in 2020-12", { given: { items: [{}] }, dialect: "2020-12", reason: /prefixItems/, pointer: "/subject/items" }],
];

describe("vendor documents (unknownKeywords: drop)", () => {
  it("drops unknown keywords and 3.0 assertions beside $ref, naming each", () => {
    const document = {
      components: { schemas: { A: { type: "string" } } },
      subject: { type: "object", properties: { a: { $ref: "#/components/schemas/A", maxLength: 3 }, b: { type: "array", min_items: 1 } } },
    };
    const translator = createSchemaTranslator(document, "oas30", { unknownKeywords: "drop" });
    expect(translator.translate("/subject")).toEqual({ type: "object", properties: { a: { $ref: "#/$defs/A" }, b: { type: "array" } } });
    expect(translator.dropped).toEqual([
      { pointer: "/subject/properties/a/maxLength", why: "beside-ref" },
      { pointer: "/subject/properties/b/min_items", why: "unknown" },
    ]);
  });
});

describe("untranslatable schemas", () => {
  it.each(refusals)("%s", (_name, { given, dialect, reason, pointer }) => {
    let caught: unknown;
    try {
      translate(given, dialect, { A: { type: "string" } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Untranslatable);
    expect((caught as Untranslatable).message).toMatch(reason);
    expect((caught as Untranslatable).pointer).toBe(pointer);
  });
});

describe("formats", () => {
  it("every format kept in a schema is one the emitter's ajv knows", () => {
    const known = new Set([...Object.keys(formats), ...ANNOTATION_FORMATS]);
    expect(KEPT_FORMATS.filter((name) => !known.has(name))).toEqual([]);
  });
});
