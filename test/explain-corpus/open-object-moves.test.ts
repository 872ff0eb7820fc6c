// Fresh inputs, round 15 (probe14). Two shapes a model meets on real tools, each of which heard
// "ask the user" or a list of fields to add, with the value it needed already in the call:
//
// 1. An open object (any other name accepted) whose required `body` is left out while the body's
//    fields are sent beside it (BFCL's ThinQ_Connect, and Notion's `page_id` sent beside its
//    `parent`): the open object takes the fields without an error of their own, so the missing
//    field's message must name each move. The move table was built for closed objects only.
// 2. A union behind a `$ref` (Notion's `parent`: `anyOf: [{$ref: parentRequest}, string]`, the
//    definition a `oneOf` of three parents, themselves `$ref`s): the move table read one union
//    level and stopped at the `$ref`'d one; a misspelt name inside the union heard "add
//    "page_id", or add "database_id", or add "type""; a text sent for a list of rich text, whose
//    items are a union with a `$ref`'d wrapper, heard "send it as array" with no shape.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { roundTrip } from "./round-trip.ts";

afterAll(removeLoadedModules);

const UUID = "6d1b4c2e-59c4-4b3a-9f2c-0e1a2b3c4d5e";

/** A tool of Notion's MCP server as the server lists it (test/fixtures/mcp-tools, @notionhq/notion-mcp-server 2.5.2). */
function notion(name: string): ToolDescription {
  const file = path.resolve(import.meta.dirname, "../fixtures/mcp-tools/notion-mcp-server.json");
  const captured = JSON.parse(readFileSync(file, "utf8")) as { tools: { name: string; inputSchema: JsonSchema }[] };
  const tool = captured.tools.find((each) => each.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return {
    name: "notion_tool",
    description: "",
    inputSchema: tool.inputSchema,
    dialect: "2020-12",
    references: {},
    source: { file: "notion-mcp-server.json", pointer: "" },
  };
}

// BFCL's live_simple ThinQ_Connect as BFCL's own converter writes it (`dict` -> `object`, no
// `additionalProperties`); the shape is BFCL's, written for this test.
const thinq: ToolDescription = {
  name: "thinq_connect",
  description: "Send a command to control an LG ThinQ appliance",
  dialect: "2020-12",
  references: {},
  source: { file: "thinq.json", pointer: "" },
  inputSchema: {
    type: "object",
    required: ["body"],
    properties: {
      body: {
        type: "object",
        required: ["airJobMode", "airFlow"],
        properties: {
          airJobMode: { type: "string", enum: ["AIR_CLEAN", "COOL", "AIR_DRY"] },
          airFlow: { type: "string", enum: ["LOW", "HIGH", "MID"] },
          powerSaveEnabled: { type: "boolean" },
          targetTemperature: { type: "integer" },
        },
      },
    },
  },
};

describe("an open object's required body left out, its fields sent beside it", () => {
  it("names each move, and one literal round repairs the call", async () => {
    const sent = { airJobMode: "COOL", airFlow: "HIGH", targetTemperature: 22 };
    const { errors, repaired, after } = await roundTrip(thinq, sent);
    // Each field is said at its own place too: the open top level takes it without an error.
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/airFlow", '"airFlow" belongs inside "body", which the call leaves out: move it to /body/airFlow'],
      ["/airJobMode", '"airJobMode" belongs inside "body", which the call leaves out: move it to /body/airJobMode'],
      [
        "/body",
        'missing required field "body"; the call sends its fields at this level ("airJobMode", "airFlow", "targetTemperature"): move them into it, as their errors say',
      ],
      ["/targetTemperature", '"targetTemperature" belongs inside "body", which the call leaves out: move it to /body/targetTemperature'],
    ]);
    expect(repaired).toEqual({ body: sent });
    expect(after).toBeUndefined();
  });

  it("with no field of the body sent, it is still a fact to ask for", async () => {
    const { errors } = await roundTrip(thinq, { device: "living room" });
    expect(errors[0]?.message).toMatch(/ask the user/);
  });

  it("in Notion's create-a-data-source, moves page_id into its parent, a union's $ref'd branch", async () => {
    const sent = { page_id: UUID, properties: {} };
    const { errors, repaired, after } = await roundTrip(notion("API-create-a-data-source"), sent);
    expect(errors.map((error) => error.message)).toEqual([
      '"page_id" belongs inside "parent", which the call leaves out: move it to /parent/page_id',
      'missing required field "parent"; the call sends its fields at this level ("page_id"): move them into it, as their errors say',
    ]);
    expect(repaired).toEqual({ parent: { page_id: UUID }, properties: {} });
    expect(after).toBeUndefined();
  });
});

describe("a union behind a $ref (Notion's parentRequest)", () => {
  it("a parent's fields sent beside it are moved in, through the $ref to the oneOf's branches", async () => {
    const sent = { database_id: UUID, type: "database_id", properties: {} };
    const { errors, repaired, after } = await roundTrip(notion("API-post-page"), sent);
    expect(errors.map((error) => error.message)).toEqual([
      '"database_id" belongs inside "parent", which the call leaves out: move it to /parent/database_id',
      'missing required field "parent"; the call sends its fields at this level ("database_id", "type"): move them into it, as their errors say',
      '"type" belongs inside "parent", which the call leaves out: move it to /parent/type',
    ]);
    expect(repaired).toEqual({ parent: { database_id: UUID, type: "database_id" }, properties: {} });
    expect(after).toBeUndefined();
  });

  it("a misspelt name inside the union is renamed, not reported as three fields to add", async () => {
    const sent = { parent: { pageid: UUID }, properties: {} };
    const { errors, repaired, after } = await roundTrip(notion("API-post-page"), sent);
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/parent", 'the object fits none of the allowed shapes; the call holds "page_id" as "pageid": move /parent/pageid to /parent/page_id'],
    ]);
    expect(repaired).toEqual({ parent: { page_id: UUID }, properties: {} });
    expect(after).toBeUndefined();
  });

  it("a name no branch misspells still hears what each branch lacks", async () => {
    const { errors } = await roundTrip(notion("API-post-page"), { parent: { id: UUID }, properties: {} });
    expect(errors[0]?.message).toBe(
      'the object fits none of the allowed shapes; each lacks a required field: add "page_id", or add "database_id", or add "type". If you do not know the value, ask the user instead of guessing',
    );
  });

  it("a text sent for a list of rich text is offered in the $ref'd wrapper", async () => {
    const sent = { parent: { page_id: UUID }, properties: {}, title: "Reading list" };
    const { errors, repaired, after } = await roundTrip(notion("API-create-a-data-source"), sent);
    expect(errors.map((error) => error.message)).toEqual([
      'expected array, got string "Reading list"; the text goes in "content" in "text": send [{"text":{"content":"Reading list"}}]',
    ]);
    expect(repaired).toEqual({ ...sent, title: [{ text: { content: "Reading list" } }] });
    expect(after).toBeUndefined();
  });
});

describe("a single value for a list whose items are a union with one bare scalar branch", () => {
  const tags: ToolDescription = {
    ...thinq,
    name: "tag",
    inputSchema: {
      type: "object",
      additionalProperties: false,
      properties: {
        tags: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Tag" }, { type: "integer" }] } },
        ids: { type: "array", items: { oneOf: [{ type: "integer" }, { type: "number", multipleOf: 0.5 }] } },
      },
      $defs: { Tag: { type: "object", required: ["id", "label"], properties: { id: { type: "integer" }, label: { type: "string" } } } },
    },
  };

  it("is offered in brackets", async () => {
    const { errors, repaired, after } = await roundTrip(tags, { tags: 7 });
    expect(errors[0]?.message).toBe("expected array, got integer 7; send a JSON array: a single value goes in brackets, send [7]");
    expect(repaired).toEqual({ tags: [7] });
    expect(after).toBeUndefined();
  });

  it("is not, under oneOf, where another branch could take the value too", async () => {
    const { errors } = await roundTrip(tags, { ids: 7 });
    expect(errors[0]?.message).not.toMatch(/send \[7\]/);
  });
});
