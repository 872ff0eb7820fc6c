// The argument types of a schema with an `allOf` and fields of its own, which a part leads back to.
// Seen in Glean's Speakeasy-managed description (speakeasy-sdks/glean-sdk-ts 2e3f9cb,
// `.speakeasy/glean-merged-spec.yaml`, which states no licence: nothing here is cut from it, the
// shape only, under names of our own): `SearchResult` is `allOf: [{$ref: Result}, {...}]` with
// `required` beside it, and a Result's structured results hold search results again. 13 of its 96
// operations were skipped: json-schema-to-typescript failed with "Cannot read properties of
// undefined (reading 'push')" (docs/corpus.md, "Fresh inputs, round 21: descriptions").
import { describe, expect, it } from "vitest";
import { emitArgumentTypes } from "../../generator/emit/types.ts";
import type { ToolDescription } from "../../generator/ir.ts";

function tool(inputSchema: Record<string, unknown>): ToolDescription {
  return { name: "search", description: "", inputSchema, dialect: "2020-12", references: {}, source: { file: "t.json", pointer: "" } } as ToolDescription;
}

const cyclic = {
  type: "object",
  properties: { result: { $ref: "#/$defs/Hit" } },
  $defs: {
    Base: { type: "object", properties: { related: { type: "array", items: { $ref: "#/$defs/Related" } } } },
    Related: { type: "object", properties: { hit: { $ref: "#/$defs/Hit" } } },
    Hit: {
      description: "A result.",
      required: ["url"],
      allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { url: { type: "string" } } }],
      properties: { score: { type: "number" } },
    },
  },
};

describe("argument types of an allOf beside fields of its own, on a cycle", () => {
  it("are written, as the intersection of the parts and the schema's own fields", async () => {
    const source = await emitArgumentTypes(tool(cyclic));
    expect(source).toContain("export type Hit = (Base & {");
    expect(source).toMatch(/score\?: number/);
    expect(source).toMatch(/url\?: string/);
    expect(source).toContain("hit?: Hit");
  });

  it("are the same types as before where no part leads back", async () => {
    const acyclic = structuredClone(cyclic);
    acyclic.$defs.Related.properties = { hit: { type: "string" } } as never;
    const source = await emitArgumentTypes(tool(acyclic));
    expect(source).toContain("export type Hit = (Base & {");
    expect(source).toMatch(/score\?: number/);
  });
});
