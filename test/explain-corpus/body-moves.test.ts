// Issue 32: an OpenAPI tool's body fields sent at the top level heard "unknown field X; remove
// it", and with an optional body the literal repair (`{}`) was accepted and dispatched with no
// body. Bodies composed with `allOf` had no names in the move table, and a name that the body
// also holds one level further down (`name` and `owner/name`) was left out as ambiguous.
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool } from "../../generator/rehearse/load-tool.ts";

const tool: ToolDescription = {
  name: "update_project",
  description: "Update a project",
  dialect: "2020-12",
  references: {},
  source: { file: "api.json", pointer: "/paths/~1projects~1{id}/patch" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["id"],
    properties: {
      id: { type: "string" },
      body: { $ref: "#/$defs/ProjectUpdate" },
    },
    $defs: {
      Named: { type: "object", properties: { name: { type: "string" } } },
      ProjectUpdate: {
        allOf: [
          { $ref: "#/$defs/Named" },
          {
            type: "object",
            properties: {
              visibility: { type: "string", enum: ["public", "private"] },
              owner: { type: "object", additionalProperties: false, properties: { name: { type: "string" } } },
            },
          },
        ],
        unevaluatedProperties: false,
      },
    },
  },
};

describe("body fields sent at the top level of an OpenAPI tool", () => {
  it("says to move each under body, and the literal repair is the call with its body", async () => {
    const loaded = await loadTool(tool);
    const sent = { id: "p1", name: "Apollo", visibility: "private" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.map((error) => error.message)).toEqual([
      'unknown field "name" at this level; it belongs at /body/name: move it to /body/name',
      'unknown field "visibility" at this level; it belongs at /body/visibility: move it to /body/visibility',
    ]);
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ id: "p1", body: { name: "Apollo", visibility: "private" } });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });
});

describe("a field whose place is taken by text", () => {
  it("is not moved into it", async () => {
    const loaded = await loadTool(tool);
    // `body` sent as text: "move it to /body/name" would name a place that cannot take it.
    const errors = (await loaded.envelope({ id: "p1", body: "rename it", name: "Apollo" })) ?? [];
    const atName = errors.find((error) => error.path === "/name");
    expect(atName?.message).not.toMatch(/move it to/);
    expect(atName?.message).toMatch(/remove it/);
  });
});

describe("a list item's fields sent flat at the level above", () => {
  const entities: ToolDescription = {
    ...tool,
    name: "create_entities",
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["entities"],
      properties: {
        entities: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["name", "entityType"],
            properties: { name: { type: "string" }, entityType: { type: "string" } },
          },
        },
      },
    },
  };

  it("says to move them into the list's first item instead of removing them", async () => {
    const loaded = await loadTool(entities);
    const sent = { name: "Ada", entityType: "person" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/name")?.message).toBe(
      'unknown field "name" at this level; it belongs at /entities/0/name: move it to /entities/0/name',
    );
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ entities: [{ name: "Ada", entityType: "person" }] });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });
});

// Found on Twilio's iam organizations (probe13): an OAuth token request's fields sent at the top
// level, where the top level accepts only `body`; `code` is two edits from `body`, and the
// spelling was offered over the move the body's own `code` determines.
describe("a body field whose name is two edits from a name of the top level", () => {
  const token: ToolDescription = {
    name: "create_token",
    description: "Create a token",
    dialect: "2020-12",
    references: {},
    source: { file: "api.json", pointer: "/paths/~1token/post" },
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["body"],
      properties: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["grant_type"],
          properties: { grant_type: { type: "string" }, code: { type: "string" }, bod: { type: "string" } },
        },
      },
    },
  };

  it("is moved into the body, and the call repairs in one round", async () => {
    const loaded = await loadTool(token);
    const sent = { grant_type: "authorization_code", code: "c0de" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.find((error) => error.path === "/code")?.message).toBe('unknown field "code" at this level; it belongs at /body/code: move it to /body/code');
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ body: { grant_type: "authorization_code", code: "c0de" } });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("one edit away, the spelling stands", async () => {
    const loaded = await loadTool(token);
    const errors = (await loaded.envelope({ bod: "x" })) ?? [];
    expect(errors.find((error) => error.path === "/bod")?.message).toContain('did you mean "body"? Rename it.');
  });
});

// More body fields sent flat than the error cap lists (20 by default): one "move" error each
// ended in "and N more", and the literal repair took a second round for the rest.
describe("more body fields sent at the top level than the error cap", () => {
  const names = Array.from({ length: 25 }, (_, i) => `field_${String(i).padStart(2, "0")}`);
  const wide: ToolDescription = {
    ...tool,
    name: "update_record",
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["id"],
      properties: {
        id: { type: "string" },
        body: { type: "object", additionalProperties: false, properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])) },
      },
    },
  };

  it("are listed as one error whose moves the literal repair makes in one round", async () => {
    const loaded = await loadTool(wide);
    const sent = { id: "r1", ...Object.fromEntries(names.map((name) => [name, `v${name}`])) };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("");
    expect(errors[0]?.message).toMatch(/^25 unknown fields at this level are declared at \/body: move \/field_00 to \/body\/field_00; move \/field_01 to /);
    const repaired = repair(sent, errors);
    expect(repaired).toEqual({ id: "r1", body: Object.fromEntries(names.map((name) => [name, `v${name}`])) });
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });

  it("under the cap, each move stays its own error", async () => {
    const loaded = await loadTool(wide);
    const sent = { id: "r1", field_00: "a", field_01: "b" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.map((error) => error.path)).toEqual(["/field_00", "/field_01"]);
  });
});
