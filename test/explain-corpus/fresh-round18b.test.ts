// Fresh inputs, round 18, a second set (probe18b): shapes from generator ecosystems' descriptions
// and published MCP servers that none of the messages was written against (docs/corpus.md,
// "Fresh inputs, round 18: a second set").
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { selectionOf } from "../corpus/discriminator-judge.ts";
import { roundTrip } from "./round-trip.ts";

afterAll(removeLoadedModules);

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

// Komga's search conditions (gotson/komga cba53ed3, `komga/docs/openapi.json`, springdoc, MIT),
// cut to two of its sixteen conditions: `SearchOperatorBoolean` is a discriminated oneOf of
// `SearchOperatorIsTrue` and `SearchOperatorIsFalse`, and each of them is an `allOf` of
// `SearchOperatorBoolean` itself. Reading a branch's own values went round that cycle to the depth
// limit at every branch (2^32 calls here), and `toolguard generate` on Komga's description ran for
// 20 minutes without an end. Without the fix this test does not finish (the suite's timeout fails it).
describe("Komga: a discriminated union whose branches are allOf of the union", () => {
  let tool: ToolDescription;
  beforeAll(async () => {
    const result: ReadResult = readOpenApi(await loadOpenApiDocument(path.join(root, "komga-search-cycle.json"), { root }));
    const found = result.tools.find((candidate) => candidate.name === "getBooks");
    if (found === undefined) throw new Error(`no getBooks; skipped: ${JSON.stringify(result.skipped)}`);
    tool = found;
  });

  it("is read, and the branches are pinned to the mapping's values", () => {
    const text = JSON.stringify(tool.inputSchema);
    expect(text).toContain('"enum":["isTrue"]');
    expect(text).toContain('"enum":["isFalse"]');
  });

  it("accepts the search conditions the description allows, nested too, and refuses an unknown operator", () => {
    const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
    const validate = ajv.compile(compiled);
    expect(validate({ body: { condition: { deleted: { operator: "isFalse" } } } })).toBe(true);
    expect(validate({ body: { condition: { anyOf: [{ oneShot: { operator: "isTrue" } }, { allOf: [{ deleted: { operator: "isFalse" } }] }] } } })).toBe(true);
    expect(validate({ body: { condition: { deleted: { operator: "maybe" } } } })).toBe(false);
  });

  it("a near miss of an operator is repaired in one round", async () => {
    const { errors, repaired, after } = await roundTrip(tool, { body: { condition: { deleted: { operator: "isfalse" } } } });
    expect(errors.length).toBeGreaterThan(0);
    expect(repaired).toEqual({ body: { condition: { deleted: { operator: "isFalse" } } } });
    expect(after).toBeUndefined();
  });

  it("the corpus judge reads the same union's branches without going round the cycle", () => {
    const document = JSON.parse(readFileSync(path.join(root, "komga-search-cycle.json"), "utf8"));
    const selection = selectionOf(document, document.components.schemas.SearchOperatorBoolean);
    expect(selection?.property).toBe("operator");
    expect(selection?.branches.map((branch) => branch.values)).toEqual([["isTrue"], ["isFalse"]]);
  });
});
