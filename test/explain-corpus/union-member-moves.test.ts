// Issue 31, "body fields at the top level", found on Twilio's messaging v3 (probe13): a body that
// is a discriminated union comes out of toolguard's translation with each member written
// `{$ref: Member, properties: {channel: {enum: [...]}}, required: [channel]}`, the tag pinned
// beside the reference. The move table read only the first reading of a member that declared
// properties, the tag alone, so the member's own fields sent at the top level heard "remove it"
// while the tag heard "move it to /body/channel", and one literal round lost them. The shape here
// is that translation's, written for this test (no vendor text).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const member = (tag: string, own: Record<string, unknown>, required: string[]) => ({
  type: "object",
  additionalProperties: false,
  required: ["channel", ...required],
  properties: { channel: { type: "string", enum: [tag] }, ...own },
});

const tool: ToolDescription = {
  name: "send_indicator",
  description: "Send a typing indicator",
  dialect: "2020-12",
  references: {},
  source: { file: "send-indicator.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["body"],
    properties: { body: { $ref: "#/$defs/Indicator" } },
    $defs: {
      Chat: member("CHAT", { messageId: { type: "string" } }, ["messageId"]),
      Mail: member("MAIL", { from: { type: "string" }, to: { type: "string" } }, ["from", "to"]),
      Indicator: {
        type: "object",
        oneOf: [
          { $ref: "#/$defs/Chat", type: "object", properties: { channel: { enum: ["CHAT"] } }, required: ["channel"] },
          { $ref: "#/$defs/Mail", type: "object", properties: { channel: { enum: ["MAIL"] } }, required: ["channel"] },
        ],
      },
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a union member's fields sent beside the body", () => {
  it("each belongs in the body, the member's own fields as well as its tag, and one round repairs the call", async () => {
    const sent = { channel: "CHAT", messageId: "SM1" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/messageId")?.message).toBe(
      'unknown field "messageId" at this level; it belongs at /body/messageId: move it to /body/messageId',
    );
    expect(errors.find((error) => error.path === "/channel")?.message).toContain("move it to /body/channel");
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ body: { channel: "CHAT", messageId: "SM1" } });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("the other member's fields are found behind its reference too", async () => {
    const sent = { channel: "MAIL", from: "a", to: "b" };
    const repaired = repair(sent, (await loaded.envelope(sent)) ?? []);
    expect(repaired).toEqual({ body: { channel: "MAIL", from: "a", to: "b" } });
  });
});
