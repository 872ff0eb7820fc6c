// The passes over ajv's printed code (generator/ajv/) blank it once and hand the blanked copy on,
// rather than each blanking it again (generation time on GitHub's 1,221 validators): the copy
// each pass hands on must be exactly what codeOnly would make of the text it goes with, and the
// hand-written tokenizer must find exactly what its regular expression finds. Checked on the
// example tools, on schemas whose text spells every kind of code, and on random text.
import standaloneModule from "ajv/dist/standalone/index.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeOnly } from "../../generator/ajv/code-text.ts";
import { qualifySchemaPaths, standaloneToEsm } from "../../generator/ajv/printed-output.ts";
import { referencedFunctions } from "../../generator/ajv/private-state.ts";
import { pruneSchemaConstants, pruneWithBlanked } from "../../generator/ajv/schema-constants.ts";
import { TOKEN, tokenize } from "../../generator/ajv/name-tokens.ts";
import { schemaLocations } from "../../generator/ajv/schema-locations.ts";
import { stableNames } from "../../generator/ajv/stable-names.ts";
import { layOut } from "../../generator/ajv/layout.ts";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import { toolOf } from "../hostile/load-validator.ts";
import { exampleTools } from "./diff-locality/tools.ts";

const standaloneCode = standaloneModule.default;

/** Text that ends strings, comments and regular expressions, and spells names, numbers and accesses. */
const HOSTILE = ['a"b', "c'd", "e*/f", "/*g", "// h", "i\\j", "k.l0", "m{n}(o)", "$p9", "9q", "validate0", "err3", "\u2028r", "s`t"];

function hostileTool(): ToolDescription {
  const properties: Record<string, unknown> = {};
  for (const [index, text] of HOSTILE.entries()) {
    properties[text] = { type: "string", maxLength: index + 1, description: text, enum: [text, `${text}!`] };
    properties[`${text}_list`] = { type: "array", uniqueItems: true, items: { type: "object", properties: { [text]: { const: text } } } };
  }
  const schema = {
    type: "object",
    properties: {
      ...properties,
      node: { $ref: "#/$defs/node" },
      first: { $ref: "#/$defs/twin_a" },
      second: { $ref: "#/$defs/twin_b" },
      code: { type: "string", pattern: '^[a-z"/*]+$' },
    },
    required: HOSTILE.slice(0, 3),
    // Two definitions alike, each compiled into a function with a schema constant of one text.
    $defs: { node: { type: "object", properties: { name: { enum: HOSTILE }, child: { $ref: "#/$defs/node" } } }, twin_a: twin(), twin_b: twin() },
  };
  return toolOf(schema);
}

function twin(): object {
  return { type: "object", properties: { kind: { enum: ["x", "y", "z"] }, next: { $ref: "#/$defs/node" } } };
}

/** What schemaLocations finds, found the plain way: every value printed, the first in document order kept. */
function locationsByPrinting(code: string, compiled: unknown): Map<string, string> {
  const first = new Map<string, string>();
  const visit = (value: unknown, pointer: string): void => {
    if (value === null || typeof value !== "object") return;
    const text = JSON.stringify(value);
    if (!first.has(text)) first.set(text, pointer);
    for (const [key, child] of Object.entries(value)) visit(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  visit(compiled, "#");
  const out = new Map<string, string>();
  for (const [, name, text] of code.matchAll(/^const (schema\d+) = (.*);$/gm)) {
    const location = first.get(text as string);
    if (location !== undefined) out.set(name as string, location);
  }
  return out;
}

/** Each pass of compileValidator in turn, with the blanked copy each hands on. */
function passes(tool: ToolDescription) {
  const { ajv, compiled } = prepareCompile(tool.dialect, tool.inputSchema as object, true);
  const validate = ajv.compile(compiled);
  const printed = standaloneCode(ajv, validate);
  const functions = referencedFunctions(validate);
  const esm = standaloneToEsm(qualifySchemaPaths(printed, functions), tool);
  const cut = pruneWithBlanked(esm.code, esm.blanked);
  const pruned = cut.code.trimEnd();
  const prunedBlanked = cut.blanked.slice(0, pruned.length);
  const schemas = schemaLocations(printed, compiled);
  const renamed = stableNames(pruned, { entry: esm.entry, functions, schemas }, prunedBlanked);
  return {
    esm,
    pruned,
    prunedBlanked,
    renamed,
    laidOut: layOut(renamed.code, renamed.blanked),
    schemas,
    expectedSchemas: locationsByPrinting(printed, compiled),
  };
}

const matched = (text: string) => [...text.matchAll(TOKEN)].map((match) => [match[0], match.index]);
const tokenized = (text: string) => {
  const { text: texts, at } = tokenize(text);
  return texts.map((token, index) => [token, at[index]]);
};

describe("the blanked copy each pass of the printed code hands on", () => {
  it("is codeOnly of the text it goes with, and the passes give what blanking afresh gives", async () => {
    const tools = [...(await exampleTools()), hostileTool()];
    for (const tool of tools) {
      const { esm, pruned, prunedBlanked, renamed, laidOut, schemas, expectedSchemas } = passes(tool);
      expect(schemas).toEqual(expectedSchemas);
      expect(esm.blanked).toBe(codeOnly(esm.code));
      expect(prunedBlanked).toBe(codeOnly(pruned));
      expect(renamed.blanked).toBe(codeOnly(renamed.code));
      expect(tokenized(codeOnly(pruned))).toEqual(matched(codeOnly(pruned)));
      // Blanking afresh at every step, as the passes did before they shared the copy.
      const fresh = stableNames(pruneSchemaConstants(esm.code).trimEnd(), { entry: esm.entry, functions: new Map(), schemas: new Map() });
      expect(stableNames(pruned, { entry: esm.entry, functions: new Map(), schemas: new Map() }, codeOnly(pruned)).code).toBe(fresh.code);
      expect(layOut(renamed.code)).toBe(laidOut);
    }
  });
});

describe("schemaLocations", () => {
  it("names a constant held at two locations by the first", () => {
    const { schemas } = passes(hostileTool());
    const located = [...schemas.values()];
    expect(located).toContain("#/$defs/twin_a");
    expect(located).not.toContain("#/$defs/twin_b");
  });
});

describe("tokenize", () => {
  it("finds what TOKEN finds, on any text", () => {
    const pieces = ["a", "Z", "_", "$", "0", "9", ".", " ", "\n", "{", "}", "(", ")", "[", '"', "é", "\u2028", "x1", "1e5", ".b2", "if", "=", "/"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const text = parts.join("");
        expect(tokenized(text)).toEqual(matched(text));
      }),
      { numRuns: 2000 },
    );
  });
});
