// Legal schemas never crash the generator (issue 32: a property named `hasOwnProperty`, one with
// a lone surrogate, a definition named with `\` or a newline, a schema nested thousands deep all
// ended in exit 70 with a stack trace). Over names built from the characters and words that
// broke it, in every place a name sits, and over nesting depth, reading and emitting a tool either
// succeeds with a validator that agrees with ajv, or ends in an InputError naming the file and
// the pointer; never anything else.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv/instances.ts";
import { emitTool } from "../../generator/emit/tool-files.ts";
import { InputError, InputErrors } from "../../generator/errors.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { isWellFormed } from "../../templates/runtime/parse/json-hazards.ts";
import { emitAndLoad } from "../hostile/load-validator.ts";

const root = mkdtempSync(path.join(tmpdir(), "toolguard-name-fuzz-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;

/** Every name JavaScript objects already have: each one a key a naive `obj[name]` misreads. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const PIECES = [...PROTOTYPE_NAMES, "\\", "\n", '"', "'", "*/", "/*", "${", "`", "\ud800", "\udc00", "~", "/", "%", "#", "%25", " ", "é", "$ref", "a", "0"];

type Outcome = { kind: "generated" } | { kind: "refused"; message: string };

/** Reads `schema` as an MCP tool file and emits it, as `generate` does. */
async function generate(inputSchema: object | string): Promise<Outcome> {
  const dir = path.join(root, `set${runs++}`);
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dir);
  const schemaText = typeof inputSchema === "string" ? inputSchema : JSON.stringify(inputSchema);
  writeFileSync(path.join(dir, "tool.json"), `{"name": "fuzzed", "description": "d", "inputSchema": ${schemaText}}`);
  try {
    const { tools } = await readSchemaSet(dir, { allowNetwork: false, strict: false });
    for (const tool of tools) await emitTool(tool);
    return { kind: "generated" };
  } catch (error) {
    const errors = error instanceof InputErrors ? error.errors : [error];
    for (const one of errors) {
      // Anything but an InputError is the crash this test exists for: fail with its stack.
      if (!(one instanceof InputError)) throw one;
      expect(one.location.file).toBe("tool.json");
      expect(one.location.pointer).toMatch(/^(\/.*)?$/s);
    }
    return { kind: "refused", message: (errors[0] as InputError).format() };
  }
}

const name = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(""));
// As a user would write it: pointer-escaped, then percent-encoded where a URI fragment must be
// (a lone surrogate has no percent-encoding and stays as it is).
const pointerToken = (text: string): string =>
  text
    .replaceAll("~", "~0")
    .replaceAll("/", "~1")
    .replace(/[%#\s"\\`{}|^<>[\]]/gu, encodeURIComponent);

describe("the generator over hostile names and depths", () => {
  it("a property named __proto__ is refused with its place (a validator would not see it)", async () => {
    const outcome = await generate(JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}'));
    expect(outcome.kind === "refused" && outcome.message).toMatch(
      /^tool\.json#\/inputSchema\/properties\/__proto__: the key "__proto__" names JavaScript's prototype/,
    );
  });

  it.each(PROTOTYPE_NAMES.filter((key) => key !== "__proto__"))("a property named %s is generated and checked as an own property", async (key) => {
    const schema = { type: "object", properties: { [key]: { type: "string" }, n: { type: "integer" } }, required: [key] };
    expect(await generate(schema)).toEqual({ kind: "generated" });
    const { validate } = await emitAndLoad(schema);
    expect(validate({})).toBe(false);
    expect(validate(JSON.parse(`{${JSON.stringify(key)}: "x"}`))).toBe(true);
    expect(validate(JSON.parse(`{${JSON.stringify(key)}: 1}`))).toBe(false);
  });

  it("names built from what broke it, as property, required, definition and enum names", async () => {
    const ajv = createAjv("2020-12");
    await fc.assert(
      fc.asyncProperty(name, name, async (property, definition) => {
        const schema = {
          type: "object",
          properties: { [property]: { $ref: `#/$defs/${pointerToken(definition)}` }, other: { enum: [property, definition] } },
          required: [property],
          $defs: { [definition]: { type: "object", properties: { [definition]: { type: "string" } } } },
        };
        const outcome = await generate(schema);
        if (outcome.kind === "refused") {
          // Only a name no JSON text a model writes can hold is refused: a lone surrogate.
          expect({ refused: outcome.message, wellFormed: isWellFormed(`${property}${definition}`) }).toEqual({ refused: outcome.message, wellFormed: false });
          return;
        }
        const { validate } = await emitAndLoad(schema);
        const expected = ajv.compile(schema);
        for (const value of [{}, { [property]: {} }, { [property]: { [definition]: 1 } }, { [property]: { [definition]: "s" }, other: definition }])
          expect(validate(value)).toBe(expected(value));
      }),
      { numRuns: 60, seed: 3232 },
    );
  });

  // Written as text: JSON.stringify itself overflows a test worker's stack at this depth.
  it.each([
    ["properties", '{"type": "object", "properties": {"a": ', "}}"],
    ["items", '{"type": "array", "items": ', "}"],
    ["allOf", '{"allOf": [', "]}"],
    ["not", '{"not": ', "}"],
  ])("nesting through %s thousands deep is an InputError naming the limit, never a stack overflow", async (_keyword, open, close) => {
    const schema = `{"type": "object", "properties": {"deep": ${open.repeat(5000)}{"type": "string"}${close.repeat(5000)}}}`;
    const outcome = await generate(schema);
    expect(outcome.kind).toBe("refused");
    expect(outcome.kind === "refused" && outcome.message).toMatch(/nesting deeper than \d+ levels/);
  });
});
