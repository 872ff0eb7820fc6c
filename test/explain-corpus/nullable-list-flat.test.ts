// Issue 31, "list item's fields sent flat": a list that may be null (pydantic's
// `Optional[List[Person]]`: `anyOf: [{type: array, items}, {type: null}]`) was not read as a list
// by the move table, so an item's fields sent beside it heard "remove it" and the call lost them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const person = { type: "object", additionalProperties: false, required: ["email"], properties: { email: { type: "string" }, role: { type: "string" } } };

const tool: ToolDescription = {
  name: "invite",
  description: "Invite people",
  dialect: "2020-12",
  references: {},
  source: { file: "invite.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["team", "people"],
    properties: {
      team: { type: "string" },
      people: { anyOf: [{ type: "array", items: { $ref: "#/$defs/Person" } }, { type: "null" }] },
      // Two lists: a union of a list and an object is not one place, and is not read as one.
      extra: { anyOf: [{ type: "array", items: { type: "object", properties: { tag: { type: "string" } } } }, { type: "object" }] },
    },
    $defs: { Person: person },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("an item's fields sent beside a list that may be null", () => {
  it("are moved into its first item, and one literal round repairs the call", async () => {
    const sent = { team: "core", email: "ada@example.com", role: "admin" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/email")?.message).toBe(
      'unknown field "email" at this level; it belongs at /people/0/email: move it to /people/0/email',
    );
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ team: "core", people: [{ email: "ada@example.com", role: "admin" }] });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("a list or an object is not read as a list: its item's field is not moved there", async () => {
    const errors = (await loaded.envelope({ team: "core", people: null, tag: "x" })) ?? [];
    expect(errors.find((error) => error.path === "/tag")?.message).not.toContain("/extra/");
  });
});
