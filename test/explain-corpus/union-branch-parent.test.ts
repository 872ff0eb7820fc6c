// Issue 31, "field one level too high", inside a union, found when rehearse's generator went into
// unions whose branch the value decides (probe13). Notion's MCP server writes a comment's
// `parent` as `anyOf: [{type: object, properties: {page_id}, required: [page_id]}, {type:
// string}]`, in an object open to other names. A `page_id` sent beside `parent` instead of inside
// it heard "missing required field "page_id"; ... ask the user": the hint table knew the holder of
// a property's own schema, not of a union branch's, so the branch had no `../page_id` to offer.
// The shape is Notion's, written for this test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const tool: ToolDescription = {
  name: "create_comment",
  description: "Create a comment",
  dialect: "2020-12",
  references: {},
  source: { file: "create-comment.json", pointer: "" },
  inputSchema: {
    type: "object",
    required: ["parent", "text"],
    properties: {
      parent: {
        anyOf: [
          { type: "object", properties: { page_id: { type: "string", description: "the page ID" } }, required: ["page_id"], additionalProperties: true },
          { type: "string" },
        ],
      },
      text: { type: "string" },
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a union branch's required field sent beside the union", () => {
  it("is moved into the branch, and one literal round repairs the call", async () => {
    const sent = { parent: {}, page_id: "p1", text: "Looks good" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/parent/page_id")?.message).toContain("move /page_id here");
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ parent: { page_id: "p1" }, text: "Looks good" });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("not sent anywhere, it is still a fact to ask for", async () => {
    const errors = (await loaded.envelope({ parent: {}, text: "Looks good" })) ?? [];
    expect(errors.find((error) => error.path === "/parent/page_id")?.message).toContain("ask the user");
  });
});
