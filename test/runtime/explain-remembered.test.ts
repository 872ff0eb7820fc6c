// A text's message is remembered per schema location (explain/location.ts `messages`): one
// definition used under several names is one location, optional under one name and required
// under another (`optionalAs`), so what is remembered must keep the two apart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const tool: ToolDescription = {
  name: "hooks",
  description: "Link a webhook to a thread",
  dialect: "2020-12",
  references: {},
  source: { file: "hooks.json", pointer: "" },
  inputSchema: {
    type: "object",
    $defs: { id: { type: "integer", description: "An id." } },
    properties: { webhook_id: { $ref: "#/$defs/id" }, thread_id: { $ref: "#/$defs/id" } },
    required: ["webhook_id"],
    additionalProperties: false,
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a remembered message", () => {
  it("is kept apart where one definition is optional under one name and required under another", async () => {
    const fresh = async (field: string, text: string) => {
      const other = await loadTool({ ...tool, name: `hooks_${field}_${text.length}` });
      return (await other.envelope({ webhook_id: 1, [field]: text })) ?? [];
    };
    const expected = { webhook_id: await fresh("webhook_id", "None"), thread_id: await fresh("thread_id", "None") };
    // The two fields hear different advice for the same text, so the test can tell them apart.
    expect(expected.webhook_id[0]?.message).not.toBe(expected.thread_id[0]?.message);
    for (const field of ["thread_id", "webhook_id", "thread_id", "webhook_id"] as const) {
      expect(await loaded.envelope({ webhook_id: 1, [field]: "None" }), field).toEqual(expected[field]);
    }
  });
});
