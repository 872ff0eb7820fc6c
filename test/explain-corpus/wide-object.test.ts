// A closed object with more than 40 fields (gRPC-gateway's ABitOfEverything: 45 query
// parameters as one tool's arguments) kept no names in its hint, so a misspelt or abbreviated
// field got "unknown field "dou"; remove it." and the call lost the value: on that tool, 4% of
// the abbreviated names were flagged with their fix. The names are kept for the spelling; the
// message lists them only up to 40.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const wide = (count: number): ToolDescription => {
  const properties: Record<string, unknown> = { uuid: { type: "string" }, doubleValue: { type: "number" } };
  for (let index = 0; Object.keys(properties).length < count; index++) properties[`filter${index}`] = { type: "string" };
  return {
    name: `list_things_${count}`,
    description: "List things",
    dialect: "2020-12",
    references: {},
    source: { file: "things.json", pointer: "" },
    inputSchema: { type: "object", properties, required: ["uuid"], additionalProperties: false },
  };
};

let many: LoadedTool;
let few: LoadedTool;
beforeAll(async () => {
  many = await loadTool(wide(47));
  few = await loadTool(wide(12));
});
afterAll(removeLoadedModules);

const messageFor = async (tool: LoadedTool, args: unknown): Promise<string> => {
  const errors = await tool.envelope(args);
  expect(errors).toHaveLength(1);
  return errors![0]!.message;
};

describe("an unknown field of a closed object with more than 40 fields", () => {
  it("an abbreviated or misspelt name is told the name it means", async () => {
    expect(await messageFor(many, { uuid: "a", dou: 5 })).toBe('unknown field "dou"; did you mean "doubleValue"? Rename it.');
    expect(await messageFor(many, { uuid: "a", doubelValue: 5 })).toBe('unknown field "doubelValue"; did you mean "doubleValue"? Rename it.');
  });

  it("a name that means none of them is still told to go, without a list of 47 names", async () => {
    const message = await messageFor(many, { uuid: "a", colour: "red" });
    expect(message).toBe('unknown field "colour"; remove it.');
  });

  it("an object of 40 fields or fewer still lists what it accepts", async () => {
    const message = await messageFor(few, { uuid: "a", colour: "red" });
    expect(message).toMatch(/^unknown field "colour"; remove it\. This object accepts only uuid, doubleValue, filter0, /);
  });
});
