// compileValidator compiles every tool on one Ajv per choice, returned before each tool to the
// state it was created in (instances.ts's reusedAjv, private-state.ts's assumption 14). A reused
// instance that kept anything of the tools before (a cached schema, a name counter, a value)
// would print different code: each case here compiles a sequence of schemas on the reused
// instance and on a new one per schema, and the printed code must be the same, byte for byte.
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { type AjvChoice, type AjvInstance, createAjv, reusedAjv, validateAgainstMeta } from "../../generator/ajv/instances.ts";
import { holdsNoSchemas } from "../../generator/ajv/private-state.ts";
import type { ToolDescription } from "../../generator/ir.ts";

const standaloneCode = standaloneModule.default;
const META_2020 = "https://json-schema.org/draft/2020-12/schema";
const META_7 = "http://json-schema.org/draft-07/schema#";

// Schemas that each put values in the scope (patterns, formats, ajv's `equal`, functions for
// `$ref` targets, union error counters), and share some (the same pattern, the same format).
const SCHEMAS: readonly object[] = [
  { type: "object", properties: { login: { type: "string", pattern: "^[a-z]+$" }, at: { type: "string", format: "date-time" } }, required: ["login"] },
  {
    type: "object",
    properties: { item: { $ref: "#/$defs/node" }, tags: { type: "array", uniqueItems: true, items: { type: "object" } } },
    $defs: { node: { type: "object", properties: { name: { enum: ["a", "b"] }, child: { $ref: "#/$defs/node" } } } },
  },
  {
    oneOf: [
      { type: "string", pattern: "^x" },
      { type: "object", properties: { kind: { const: "y" } }, required: ["kind"] },
    ],
  },
  { type: "object", properties: { slug: { type: "string", pattern: "^[a-z]+$", maxLength: 10 }, mail: { type: "string", format: "email" } } },
];

const CHOICES: readonly { dialect: ToolDescription["dialect"]; meta: string; choice: AjvChoice }[] = [
  { dialect: "2020-12", meta: META_2020, choice: { validateSchema: false, meta: false, dynamicScope: false, branchErrors: true } },
  { dialect: "2020-12", meta: META_2020, choice: { validateSchema: false, meta: false, dynamicScope: true, branchErrors: true } },
  { dialect: "draft-07", meta: META_7, choice: { validateSchema: false, meta: false, branchErrors: false } },
];

/** What compileValidator does with the instance: the meta-schema check (which sets its scope), a compile, the printed code. */
function printed(ajv: AjvInstance, dialect: ToolDescription["dialect"], meta: string, schema: object): string {
  const withMeta = { $schema: meta, ...schema };
  validateAgainstMeta(ajv, () => createAjv(dialect), `${dialect} ${meta}`, withMeta);
  return standaloneCode(ajv, ajv.compile(schema));
}

describe("a reused Ajv (instances.ts's reusedAjv)", () => {
  for (const { dialect, meta, choice } of CHOICES) {
    it(`prints what a new instance prints, schema after schema (${dialect}, ${JSON.stringify(choice)})`, () => {
      // Each schema twice, the same object the second time: a cached compile must not survive.
      for (const schema of [...SCHEMAS, ...SCHEMAS]) {
        expect(printed(reusedAjv(dialect, choice), dialect, meta, schema)).toBe(printed(createAjv(dialect, choice), dialect, meta, schema));
      }
    });
  }

  it("is the same instance again for the same choice, and holds nothing of the tool before", () => {
    const { dialect, meta, choice } = CHOICES[0] as (typeof CHOICES)[number];
    const first = reusedAjv(dialect, choice);
    printed(first, dialect, meta, SCHEMAS[1] as object);
    expect(holdsNoSchemas(first)).toBe(false);
    const again = reusedAjv(dialect, choice);
    expect(again).toBe(first);
    expect(holdsNoSchemas(again)).toBe(true);
  });

  it("is a new instance each time where meta-schemas are loaded", () => {
    const choice = { validateSchema: false, meta: true };
    expect(reusedAjv("2020-12", choice)).not.toBe(reusedAjv("2020-12", choice));
  });
});
