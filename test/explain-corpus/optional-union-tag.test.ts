// Issue 31, "union member with its tag left out", where no member requires the tag: found on Box's
// API description (box/box-openapi openapi.json, probe13). Its AI extraction's taxonomy sources
// are a `oneOf` of two open objects, each declaring `type` with its own value (`taxonomy`,
// `file`), neither requiring it. A source sent without `type` fits both, and heard only "it
// matches more than one of the allowed shapes ... send a value that fits exactly one". Where its
// other fields are one member's only, the message now says the tag to send. The shape is Box's,
// written for this test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const member = (tag: string, own: Record<string, unknown>) => ({
  type: "object",
  properties: { type: { type: "string", enum: [tag] }, taxonomy_key: { type: "string" }, ...own },
});

const tool: ToolDescription = {
  name: "extract",
  description: "Extract with taxonomies",
  dialect: "2020-12",
  references: {},
  source: { file: "extract.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["sources"],
    properties: {
      sources: {
        type: "array",
        items: { type: "object", oneOf: [member("taxonomy", { namespace: { type: "string" } }), member("file", { id: { type: "string" } })] },
      },
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a union member sent without its optional tag", () => {
  it("hears the tag its fields name, and one literal round repairs the call", async () => {
    const sent = { sources: [{ namespace: "enterprise_123" }] };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/sources/0/type")?.message).toContain('send "taxonomy"');
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ sources: [{ namespace: "enterprise_123", type: "taxonomy" }] });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("fields both members declare name no tag: the ambiguity is said, with no value", async () => {
    const errors = (await loaded.envelope({ sources: [{ taxonomy_key: "k" }] })) ?? [];
    expect(errors.map((error) => error.path)).toEqual(["/sources/0"]);
    expect(errors[0]?.message).toContain("more than one of the allowed shapes");
  });
});
