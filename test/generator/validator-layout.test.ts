// The validator as a reviewer reads it (issue 30): indented by block, a comment on each
// property, loop and error saying what it checks, and the hazard walk's arithmetic explained.
// The comments quote schema text only as the JSON string literal ajv printed, so a property
// name that spells a comment's end, a newline or a brace changes nothing but the text.
import { describe, expect, it } from "vitest";
import { compileValidator } from "../../generator/emit/validator.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";
import { exampleTools } from "./diff-locality/tools.ts";
import { moduleOf } from "./diff-locality/battery.ts";

const HOSTILE_NAMES = ["a*/b", "line\nbreak", "{brace", 'quote"d', "// comment", "\u2028sep"];

describe("the validator's layout", () => {
  it("indents by block and comments each property, loop and error", async () => {
    const invoice = (await exampleTools()).find((tool) => tool.name === "create_invoice");
    const module = await moduleOf(invoice as NonNullable<typeof invoice>);
    const validator = module.slice(module.indexOf("function validate_arguments"));
    expect(validator).toContain('\n    // The property "currency", when it is there.\n    if(data.currency !== undefined');
    expect(validator).toContain('\n        // Error, not one of the allowed values: "#/properties/currency/enum".\n        const err0 = {');
    expect(validator).toContain("\n    // Each key of the object.\n    for(const key0 of Object.keys(data)){");
    expect(validator).toMatch(/\n( +)\/\/ Each item of the array\.\n\1for\(let i0=0; i0<len0; i0\+\+\)\{/);
    // Every line inside the function is indented, and every block closes at its opener's depth.
    const body = validator.split("\n").slice(1, validator.split("\n").indexOf("}"));
    expect(body.filter((line) => line !== "" && !line.startsWith("  "))).toEqual([]);
    expect(module).toContain("`length += 12 + x.length + 2`");
    expect(module).toContain("each member adds its key's length + 4 (two");
  });

  it("comments on hostile property names stay one line of comment and the validator still guards", async () => {
    const properties = Object.fromEntries(HOSTILE_NAMES.map((name) => [name, { type: "string", maxLength: 3 }]));
    const schema = { type: "object", properties, additionalProperties: false };
    const validator = compileValidator(toolOf(schema));
    // ajv escapes U+2028, which would end a `//` comment, and the comment quotes ajv's literal.
    const literal = (name: string) => JSON.stringify(name).replace(/\u2028/g, "\\u2028");
    for (const name of HOSTILE_NAMES) expect(validator.code).toContain(`// The property ${literal(name)}, when it is there.`);
    expect(validator.code).not.toContain("\u2028");
    const { validate } = await emitAndLoad(schema);
    for (const name of HOSTILE_NAMES) {
      expect(validate({ [name]: "abc" })).toBe(true);
      expect(validate({ [name]: "abcd" })).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ keyword: "maxLength", instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}` });
    }
    expect(validate({ other: 1 })).toBe(false);
  });
});
