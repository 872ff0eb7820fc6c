// The passes over ajv's printed code (generator/ajv/) blank it once and hand the blanked copy on,
// rather than each blanking it again (generation time on GitHub's 1,221 validators): the copy
// each pass hands on must be exactly what codeOnly would make of the text it goes with, and the
// hand-written tokenizer and the top level's reader must find exactly what their regular
// expressions and the plain line-by-line reading find. Checked on the
// example tools, on schemas whose text spells every kind of code, and on random text.
import standaloneModule from "ajv/dist/standalone/index.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeOnly } from "../../generator/ajv/code-text.ts";
import { qualifySchemaPaths, standaloneToEsm } from "../../generator/ajv/printed-output.ts";
import { referencedFunctions } from "../../generator/ajv/private-state.ts";
import { constantUses, pruneSchemaConstants, pruneWithBlanked } from "../../generator/ajv/schema-constants.ts";
import { TOKEN, tokenize } from "../../generator/ajv/name-tokens.ts";
import { schemaLocations } from "../../generator/ajv/schema-locations.ts";
import { stableNames } from "../../generator/ajv/stable-names.ts";
import { layOut, layOutWithBlanked } from "../../generator/ajv/layout.ts";
import { splitSharedFunctions } from "../../generator/ajv/shared-functions.ts";
import { IDENTIFIER, type Statement, topLevelDeclarations, topLevelStatements } from "../../generator/ajv/top-level-statements.ts";
import { compileValidator, prepareCompile } from "../../generator/emit/validator.ts";
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

/**
 * topLevelStatements read the plain way, as it was written before it read the flat strings in
 * place: split into lines, braces counted per character, names found by IDENTIFIER.
 */
function statementsByLines(code: string): { name: string; kind: string; text: string; uses: string[] }[] {
  const lines = code.split("\n");
  const blankedLines = codeOnly(code).split("\n");
  const found: { name: string; kind: string; lines: string[]; blanked: string[] }[] = [];
  let comments: string[] = [];
  let current: (typeof found)[number] | undefined;
  let reopened = false;
  let depth = 0;
  for (const [index, line] of lines.entries()) {
    const blanked = blankedLines[index] as string;
    if (current === undefined) {
      if (blanked.trim() === "") {
        if (line.trim().startsWith("//")) comments.push(line);
        continue;
      }
      const declared = /^(const|function) ([A-Za-z_$][\w$]*)[ (]/.exec(blanked);
      const assigned = declared ? undefined : /^([A-Za-z_$][\w$]*)\.[\w$]+ = /.exec(blanked);
      const owner = assigned && line.startsWith(`${assigned[1]}.evaluated = `) ? found.find((s) => s.kind === "function" && s.name === assigned[1]) : undefined;
      if (owner) {
        owner.lines.push(...comments, line);
        owner.blanked.push(blanked);
        current = owner;
        reopened = true;
      } else if (declared) current = { kind: declared[1] as string, name: declared[2] as string, lines: [...comments, line], blanked: [blanked] };
      else throw new Error(`not a declaration: ${blanked}`);
      comments = [];
    } else {
      current.lines.push(line);
      current.blanked.push(blanked);
    }
    for (const char of blanked) {
      if (char === "{") depth++;
      else if (char === "}") depth--;
    }
    if (depth === 0 && /;\s*$|^\}\s*$/.test(blanked)) {
      if (!reopened) found.push(current);
      current = undefined;
      reopened = false;
    }
  }
  const names = new Set(found.map((statement) => statement.name));
  return found.map(({ name, kind, lines: text, blanked }) => {
    const uses = new Set<string>();
    for (const [used] of blanked.join("\n").matchAll(IDENTIFIER)) if (used !== name && names.has(used)) uses.add(used);
    return { name, kind, text: text.join("\n"), uses: [...uses] };
  });
}

/** A recursive definition: its function can be shared, so the split cuts the validator. */
const SHARED_DEFINITION = {
  type: "object",
  properties: { root: { $ref: "#/$defs/node" } },
  $defs: { node: { type: "object", properties: { name: { type: "string" }, child: { $ref: "#/$defs/node" } } } },
};

const plainStatements = (statements: readonly Statement[]) => statements.map(({ name, kind, text, uses }) => ({ name, kind, text, uses: [...uses] }));

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
    laid: layOutWithBlanked(renamed.code, renamed.blanked),
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
    const tools = [...(await exampleTools()), hostileTool(), toolOf(SHARED_DEFINITION)];
    let split = 0;
    for (const tool of tools) {
      const { esm, pruned, prunedBlanked, renamed, laidOut, laid, schemas, expectedSchemas } = passes(tool);
      expect(schemas).toEqual(expectedSchemas);
      expect(esm.blanked).toBe(codeOnly(esm.code));
      expect(prunedBlanked).toBe(codeOnly(pruned));
      expect(renamed.blanked).toBe(codeOnly(renamed.code));
      expect(tokenized(codeOnly(pruned))).toEqual(matched(codeOnly(pruned)));
      // Blanking afresh at every step, as the passes did before they shared the copy.
      const fresh = stableNames(pruneSchemaConstants(esm.code).trimEnd(), { entry: esm.entry, functions: new Map(), schemas: new Map() });
      expect(stableNames(pruned, { entry: esm.entry, functions: new Map(), schemas: new Map() }, codeOnly(pruned)).code).toBe(fresh.code);
      expect(layOut(renamed.code)).toBe(laidOut);
      expect(laid.code).toBe(laidOut);
      expect(laid.blanked).toBe(codeOnly(laidOut));
      // The top level, read in place from the handed-on copy, is what the plain reading finds,
      // names in the same order; and the split is the same with or without the copy.
      const statements = topLevelStatements(laid.code, laid.blanked);
      expect(plainStatements(statements)).toEqual(statementsByLines(laidOut));
      // Each statement's blanked copy (the split searches it for imports) is codeOnly of its text,
      // and the declarations alone (the split's look before it reads statements) are theirs.
      for (const statement of statements) expect(statement.blanked).toBe(codeOnly(statement.text));
      expect(topLevelDeclarations(laid.code, laid.blanked).map(({ name, kind }) => ({ name, kind }))).toEqual(
        statements.map(({ name, kind }) => ({ name, kind })),
      );
      const cutUp = splitSharedFunctions(laid.code, renamed.entry, esm.imports, laid.blanked);
      expect(cutUp).toEqual(splitSharedFunctions(laidOut, renamed.entry, esm.imports));
      // The names the split says the tool's part declares (the module's name check reads them, tool-module.ts) are what the plain reading finds there.
      expect(cutUp.declared).toEqual(statementsByLines(cutUp.code).map((statement) => statement.name));
      if (cutUp.shared.length > 0) split++;
      // compileValidator hands the laid-out copy on to the split (emit/tool-files.ts).
      const compiled = compileValidator(tool);
      expect(compiled.blanked).toBe(codeOnly(compiled.code));
    }
    // Both ways out of the split were read: with modules cut out and without.
    expect([split > 0, split < tools.length]).toEqual([true, true]);
  });
});

describe("schemaLocations", () => {
  it("names a constant held at two locations by the first", () => {
    const { schemas } = passes(hostileTool());
    const located = [...schemas.values()];
    expect(located).toContain("#/$defs/twin_a");
    expect(located).not.toContain("#/$defs/twin_b");
  });

  // It looks a value up after its children, and only when its count of keys (or items) is a
  // constant's: the plain reading (every value printed, parents first) is the oracle.
  it("finds what printing every value finds, on any schema and any constants", () => {
    // Keys that spell pointer escapes, commas (an outline's separator) and `[` (an array's).
    const key = fc.constantFrom("a", "b", "~", "/", "a,b", "[2", "__proto__", "");
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        // undefined: JSON.stringify leaves such a key out, and prints such an item as null.
        fc.constantFrom(1, "x", null, true, undefined),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.array(fc.tuple(key, tie("node")), { maxLength: 4 }).map(objectOf),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { maxLength: 6 }), (compiled, picks) => {
        // Constants of values found in it (some twice, so two print alike) and of one that is not.
        const found: unknown[] = [];
        const collect = (node: unknown): void => {
          if (node === null || typeof node !== "object") return;
          found.push(node);
          for (const child of Object.values(node)) collect(child);
        };
        collect(compiled);
        const held = [...picks.map((pick) => found[pick % found.length]), { a: [1, 2] }, [null]];
        const code = held.map((node, index) => `const schema${index} = ${JSON.stringify(node)};`).join("\n");
        expect(schemaLocations(code, compiled)).toEqual(locationsByPrinting(code, compiled));
      }),
      { numRuns: 1500 },
    );
  });
});

/** An object whose keys are `entries`' in order, `__proto__` included as a key (as JSON.parse makes it). */
function objectOf(entries: readonly [string, unknown][]): object {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

describe("constantUses", () => {
  it("finds each name where its own search finds it, on any text", () => {
    const pieces = ["schema", "schema1", "1", "12", ".", "$", "_", "x", " ", "(", "[", "\n", "é"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40, size: "max" }), (parts) => {
        const text = parts.join("");
        const names = new Set([...text.matchAll(/schema\d+/g)].map(([name]) => name));
        const expected = new Map<string, number[]>();
        for (const name of names) {
          const offsets = [...text.matchAll(new RegExp(String.raw`(?<![\w$.])${name}(?![\w$])`, "g"))].map((match) => match.index);
          if (offsets.length > 0) expected.set(name, offsets);
        }
        expect(constantUses(text)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("tokenize", () => {
  it("finds what TOKEN finds, on any text", () => {
    const pieces = ["a", "Z", "_", "$", "0", "9", ".", " ", "\n", "{", "}", "(", ")", "[", '"', "é", "\u2028", "x1", "1e5", ".b2", "if", "=", "/"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60, size: "max" }), (parts) => {
        const text = parts.join("");
        expect(tokenized(text)).toEqual(matched(text));
      }),
      { numRuns: 2000 },
    );
  });
});
