// Every search and rewrite over ajv's printed code (generator/ajv/) reads ajv's own code, never
// schema text, which reaches the printed code through strings and property accesses (issue 32:
// a property named `indices` stopped generation with an AjvAssumptionError). Each identifier or
// snippet a search looks for is planted in every kind of place schema text can sit; the schema
// must compile to a validator that imports what it did without the text and that agrees with ajv.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv/instances.ts";
import { codeOnly } from "../../generator/ajv/code-text.ts";
import { splitSharedFunctions } from "../../generator/ajv/shared-functions.ts";
import { compileValidator } from "../../generator/emit/validator.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";

/** What generator/ajv/ searches ajv's printed code for, and text shaped like its rewrites. */
const SEARCHED = [
  "indices",
  "indices0",
  "indices7",
  "const indices0 = {};",
  "\nlet indices3 = {};\n",
  'require("fs")',
  'require("ajv/dist/runtime/equal").default',
  "require(",
  "formats",
  "formats.email",
  'formats["x"]',
  "linearRegExp",
  "lastDuplicate",
  "duplicateBefore",
  "ucs2length",
  "equal",
  "func0",
  "func9",
  "\nconst func1 = equal;\n",
  "schema0",
  "schema31",
  "schema32",
  "schema1.enum",
  "\nconst schema5 = {};\n",
  "validate0",
  "validate20",
  "\nexport const validate = validate0;\nexport default validate0;\n",
  "\nfunction validate9(",
  'schemaPath:"#/x"',
  "validate_arguments",
  "validate_node",
  "\nfunction validate_node(",
  "schema_node",
  "\nconst schema_node_0a1b2c = {};\n",
  "wrapper_0a1b2c",
  "export { validate_node };",
  'import { validate_node } from "./shared/node-0123456789.js";',
  "#/$defs/node",
  "\nouter0:\n",
  '"use strict";\n',
  "*/",
  "/*",
  "// x",
  "'",
  '"',
  "\\",
  "\u2028",
];

type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>>; $defs: Record<string, unknown> };

/** A schema whose validator prints every name searched for: index maps, pairwise equal, patterns, formats, lengths, constants, a recursive function. */
function base(): Schema {
  return {
    type: "object",
    properties: {
      tags: { type: "array", uniqueItems: true, items: { type: "string" } },
      pairs: { type: "array", uniqueItems: true, items: { type: "object" } },
      code: { type: "string", pattern: "^[a-z]+$" },
      mail: { type: "string", format: "email" },
      size: { type: "string", maxLength: 3 },
      kind: { enum: ["a", "b"] },
      node: { $ref: "#/$defs/node" },
    },
    $defs: { node: { type: "object", properties: { name: { enum: ["x", "y"] }, child: { $ref: "#/$defs/node" } } } },
  };
}

/** A schema whose validator prints none of them: no constant, helper or index map to find. */
function bare(): Schema {
  return { type: "object", properties: {}, $defs: {} };
}

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/** Each kind of place schema text reaches ajv's printed code, as a change to `schema`. */
const PLACES: Record<string, (schema: Schema, text: string) => void> = {
  "property name": (schema, text) => {
    schema.properties[text] = { type: "array", uniqueItems: true, items: { type: "string" } };
  },
  "required name": (schema, text) => {
    schema.properties[text] ??= { type: "string" };
    schema["required"] = [text];
  },
  "enum value": (schema, text) => {
    schema.properties["kind"] ??= { enum: ["a"] };
    (schema.properties["kind"]["enum"] as string[]).push(text);
  },
  "const value": (schema, text) => {
    schema.properties["fixed"] = { const: text };
  },
  annotations: (schema, text) => {
    schema.properties["code"] ??= { type: "string" };
    for (const target of [schema, schema.properties["code"]]) {
      Object.assign(target, { description: text, title: text, $comment: text, examples: [text], default: text });
    }
  },
  pattern: (schema, text) => {
    schema.properties["matched"] = { type: "string", pattern: escapeRegExp(text) };
  },
  "pattern property": (schema, text) => {
    // Anchored apart from the named properties: ajv's strict mode refuses a pattern that matches one.
    schema["patternProperties"] = { [`^~${escapeRegExp(text)}~$`]: { type: "string" } };
  },
  "definition name": (schema, text) => {
    schema.$defs[text] = {
      type: "object",
      properties: { inner: { enum: [text, "z"] }, self: { $ref: `#/$defs/${encodeURIComponent(text.replaceAll("~", "~0").replaceAll("/", "~1"))}` } },
    };
    schema.properties["defined"] = { $ref: `#/$defs/${encodeURIComponent(text.replaceAll("~", "~0").replaceAll("/", "~1"))}` };
  },
  "dependent names": (schema, text) => {
    schema["dependentRequired"] = { [text]: ["kind"] };
  },
  "property names": (schema, text) => {
    schema["propertyNames"] = { not: { const: `${text}!` } };
  },
};

function planted(places: readonly string[], text: string, from: () => Schema = base): Schema {
  const schema = from();
  for (const place of places) PLACES[place]?.(schema, text);
  return schema;
}

const IMPORTS = compileValidator(toolOf(base())).imports;

/** What a validator's code needs and keeps: its imports, and the schema constants pruning left (`text` read as `neutral`). */
function shape(schema: Schema, text = "neutral"): { imports: readonly string[]; constants: string[] } {
  const { imports, code } = compileValidator(toolOf(schema));
  const printed = JSON.stringify(text).slice(1, -1).replaceAll("\u2028", "\\u2028");
  return {
    imports,
    constants: (code.match(/^const schema\d+ = .*$/gm) ?? []).map((line) => line.replace(/ = .*/, (value) => value.replaceAll(printed, "neutral"))),
  };
}

/** How a validator splits into the tool's part and shared modules: imports, modules, the functions and constants each holds. */
function splitShape(schema: Schema): { tool: string[]; modules: string[] } {
  const { imports, code, entry } = compileValidator(toolOf(schema));
  const split = splitSharedFunctions(code, entry, imports);
  // What each part declares and imports, by kind: the names hold the planted text.
  const kinds = (text: string): string =>
    [...text.matchAll(/^(?:(function|const) ([a-z]+)_|import \{ [^}]* \} from "([^"]*?)(?:\/[^/"]*-[0-9a-f]{10})?\.js")/gm)]
      .map((match) => match[3] ?? `${match[1]} ${match[2]}`)
      .join(",");
  return { tool: [kinds(split.imports.join("\n")), kinds(split.code)], modules: split.shared.map((module) => kinds(module.code)).sort() };
}

describe("searches over ajv's printed code read ajv's code, not schema text", () => {
  it("codeOnly blanks strings, comments and accessed names, keeping every offset", () => {
    const code = 'const indices0 = {};\nif(data.indices === "indices0"){/* indices1 */}\n';
    const own = codeOnly(code);
    expect(own.length).toBe(code.length);
    expect(own.split("\n").length).toBe(code.split("\n").length);
    expect(own.match(/indices\d*/g)).toEqual(["indices0"]);
  });

  // Exhaustive over what is searched and where schema text sits, compiled only: quick. The twin
  // is the same schema with a neutral text in the same places: what ajv's code needs is the same.
  it.each(Object.keys(PLACES))("each searched name, planted as a %s, compiles to what its neutral twin compiles to", (place) => {
    for (const from of [base, bare]) {
      const twin = shape(planted([place], "neutral", from));
      for (const text of SEARCHED) expect({ text, ...shape(planted([place], text, from), text) }).toEqual({ text, ...twin });
    }
  });

  // The split into shared modules (ajv/shared-functions.ts) moves what it moved without the text.
  it.each(Object.keys(PLACES))("each searched name, planted as a %s, splits into the shared modules its neutral twin splits into", (place) => {
    for (const from of [base, bare]) {
      const twin = splitShape(planted([place], "neutral", from));
      for (const text of SEARCHED) expect({ text, ...splitShape(planted([place], text, from)) }).toEqual({ text, ...twin });
    }
  });

  it("a validator with the names planted everywhere at once agrees with ajv on the schema as written", async () => {
    const ajv = createAjv("2020-12");
    for (const text of SEARCHED) {
      const schema = planted(Object.keys(PLACES), text);
      const { validate } = await emitAndLoad(schema);
      const expected = ajv.compile(schema);
      const instances = [
        {},
        { tags: ["a", "a"] },
        { tags: ["a", "b"], pairs: [{}, {}] },
        { [text]: [text, text] },
        { [text]: ["a"], kind: text, fixed: text, matched: text, code: "ab" },
        { kind: "a", defined: { inner: text, self: { inner: "z" } } },
        { node: { name: "x", child: { name: text } } },
        { [`${text}!`]: 1, [`~${text}~`]: 3 },
        { size: "abcd", mail: "a@b.co" },
      ];
      for (const instance of instances) expect({ text, instance, valid: validate(instance) }).toEqual({ text, instance, valid: expected(instance) });
    }
  });

  it("arbitrary text built from the searched names, in any places, compiles with the same imports", () => {
    const piece = fc.oneof(fc.constantFrom(...SEARCHED), fc.string({ maxLength: 4 }), fc.constantFrom("0", "1", "\n", " ", "{", "}", ";", "(", ")", "."));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), fc.subarray(Object.keys(PLACES), { minLength: 1 }), (pieces, places) => {
        const text = pieces.join("");
        expect(compileValidator(toolOf(planted(places, text))).imports).toEqual(IMPORTS);
      }),
      { numRuns: 150, seed: 32 },
    );
  });
});
