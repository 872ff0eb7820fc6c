// Issue 31, "allowed value as a synonym", on a union's tag, found when rehearse's generator went
// into unions whose branch the value decides (probe13): GitHub's projects field body is a `oneOf`
// told apart by `data_type` (`text`, `number`, `date`, ...). `plain` for `text` heard the list of
// kinds with no "did you mean", where an enum's value gets the synonym (explain/synonyms.ts). The
// shape is GitHub's, written for this test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const kind = (tag: string, extra: Record<string, unknown> = {}) => ({
  type: "object",
  additionalProperties: false,
  required: ["name", "data_type", ...Object.keys(extra)],
  properties: { name: { type: "string" }, data_type: { type: "string", enum: [tag] }, ...extra },
});

const tool: ToolDescription = {
  name: "add_field",
  description: "Add a project field",
  dialect: "2020-12",
  references: {},
  source: { file: "add-field.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["field"],
    properties: {
      field: {
        oneOf: [kind("text"), kind("number"), kind("single_select", { options: { type: "array", items: { type: "string" } } })],
      },
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a union's tag sent as a synonym of one kind", () => {
  it("hears the kind it means, and one literal round repairs the call", async () => {
    const sent = { field: { name: "Notes", data_type: "plain" } };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/field/data_type")?.message).toContain('did you mean "text"?');
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ field: { name: "Notes", data_type: "text" } });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("a word of no group hears the kinds only", async () => {
    const errors = (await loaded.envelope({ field: { name: "Notes", data_type: "prose" } })) ?? [];
    expect(errors.find((error) => error.path === "/field/data_type")?.message).not.toContain("did you mean");
  });
});
