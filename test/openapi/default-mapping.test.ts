// OpenAPI 3.2's `discriminator.defaultMapping` names the branch for a call whose discriminating
// property is missing or names no branch. Each branch used to be pinned to its values (the
// default one to its component name, OpenAPI's implicit value), so a pet whose `petType` the
// mapping does not list (`lizard`) fit no branch and a valid call was refused. The default
// branch now refuses only the values that name another branch.
// Fixture: fixtures/openapi/default-mapping-3.2.json.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

describe("a discriminator's defaultMapping", () => {
  let validate: (value: unknown) => boolean;
  beforeAll(async () => {
    const result: ReadResult = readOpenApi(await loadOpenApiDocument(path.join(root, "default-mapping-3.2.json"), { root }));
    const tool = result.tools.find((candidate) => candidate.name === "createPet");
    if (tool === undefined) throw new Error(`no createPet; skipped: ${JSON.stringify(result.skipped)}`);
    // Compiled as generated packages compile it (combinators folded).
    const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
    validate = ajv.compile(compiled);
  });

  it("a value the mapping does not list, or no value, goes to the default branch", () => {
    expect(validate({ body: { petType: "lizard", note: "green" } })).toBe(true);
    expect(validate({ body: { note: "no type given" } })).toBe(true);
    // The default branch's own name is no value of another branch either.
    expect(validate({ body: { petType: "OtherPet" } })).toBe(true);
  });

  it("a mapped value goes to its branch alone, though the default branch would take its fields too", () => {
    expect(validate({ body: { petType: "cat", meows: true } })).toBe(true);
    expect(validate({ body: { petType: "dog", barks: false } })).toBe(true);
    // A cat's call with a field cats do not have is refused: the default branch does not take a mapped value.
    expect(validate({ body: { petType: "cat", note: "x" } })).toBe(false);
    expect(validate({ body: { petType: "dog", meows: true } })).toBe(false);
  });
});
