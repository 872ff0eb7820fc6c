// Issue 31, "field misspelt in a union member": a union of tagged objects that may also be null
// (pydantic's `Optional[Union[Meeting, Task]]`, `anyOf: [..., {type: null}]`) named no member,
// because its tag was read only where every branch is an object. A misspelt required field of a
// member got "matches none of the allowed shapes (accepted types: null)" at the union, and the
// call lost it. The tag is now read over the object branches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const member = (tag: string, required: string, other: string) => ({
  type: "object",
  additionalProperties: false,
  required: ["type", required],
  properties: { type: { type: "string", enum: [tag] }, [required]: { type: "string" }, [other]: { type: "string" } },
});

const tool: ToolDescription = {
  name: "add_event",
  description: "Add an event",
  dialect: "2020-12",
  references: {},
  source: { file: "add-event.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["event"],
    properties: { event: { anyOf: [member("meeting", "start_time", "room"), { type: "null" }, member("task", "due_date", "assignee")] } },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a misspelt field of a tagged member of a nullable union", () => {
  it("is renamed inside the member its tag names, after the null branch as before it", async () => {
    for (const [sent, wrong, right] of [
      [{ event: { type: "meeting", strt_time: "9:30" } }, "strt_time", "start_time"],
      [{ event: { type: "task", due_dat: "2026-12-02" } }, "due_dat", "due_date"],
    ] as const) {
      const errors = (await loaded.envelope(sent)) ?? [];
      expect(errors.find((error) => error.path === `/event/${wrong}`)?.message).toMatch(new RegExp(`did you mean "${right}"\\? Rename it\\.`));
      expect(await loaded.envelope(repair(sent, errors))).toBeUndefined();
    }
  });

  it("still takes null, and names the kinds for an unknown tag", async () => {
    expect(await loaded.envelope({ event: null })).toBeUndefined();
    const errors = (await loaded.envelope({ event: { type: "call", start_time: "9:30" } })) ?? [];
    expect(errors.map((error) => error.message).join(" ")).toContain('"meeting"');
  });
});
