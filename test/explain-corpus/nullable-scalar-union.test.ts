// Issue 31's value classes inside a union that may be null, found when rehearse's generator went
// into unions whose branch the value decides (probe13). pydantic writes `Optional[int]` as
// `anyOf: [{type: integer}, {type: null}]`, where JSON Schema written by hand says
// `type: [integer, null]`. A value of a type neither branch takes (`"+8"`, `"None"`, a list of
// one) heard only "it matches none of the allowed shapes (accepted types: integer, null)", with
// nothing to send; the type rule's reading of the same value is now given, as for the type array.
// The shapes are those pydantic and zod write (a branch with its own bounds is not folded into a
// type array), written for this test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const optional = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: "null" }], default: null });

const tool: ToolDescription = {
  name: "list_issues",
  description: "List issues",
  dialect: "2020-12",
  references: {},
  source: { file: "list-issues.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["repo"],
    properties: {
      repo: { type: "string" },
      limit: optional({ type: "integer", exclusiveMinimum: 0, maximum: 20 }),
      state: optional({ type: "string", enum: ["open", "closed"] }),
      draft: optional({ type: "boolean", description: "only drafts" }),
      labels: optional({ type: "object", propertyNames: { type: "string" }, additionalProperties: {} }),
      // A union of two scalar types and no null: the value's type is still the whole mistake.
      size: { anyOf: [{ type: "integer", minimum: 0 }, { type: "boolean" }] },
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

async function repairedOnce(sent: Record<string, unknown>, path: string): Promise<{ message: string | undefined; repaired: unknown }> {
  const errors = (await loaded.envelope(sent)) ?? [];
  const repaired = repair(sent, errors);
  expect(await loaded.envelope(repaired)).toBeUndefined();
  return { message: errors.find((error) => error.path === path)?.message, repaired };
}

describe("a value of a type no branch of a nullable union takes", () => {
  it("a number with a sign is read as the number it carries", async () => {
    const { message, repaired } = await repairedOnce({ repo: "r", limit: "+8" }, "/limit");
    expect(message).toContain("send 8 as a JSON number");
    expect(repaired).toEqual({ repo: "r", limit: 8 });
  });

  it("Python's None for the optional field: omit it, or send null", async () => {
    const { message, repaired } = await repairedOnce({ repo: "r", limit: "None" }, "/limit");
    expect(message).toContain("omit it");
    expect(repaired).toEqual({ repo: "r" });
  });

  it("a list of one allowed value: send it alone", async () => {
    const { message, repaired } = await repairedOnce({ repo: "r", state: ["closed"] }, "/state");
    expect(message).toContain('send "closed"');
    expect(repaired).toEqual({ repo: "r", state: "closed" });
  });

  it("Python's None for an optional map that may be null", async () => {
    const { message } = await repairedOnce({ repo: "r", labels: "None" }, "/labels");
    expect(message).toContain("omit it");
  });

  it("a boolean written as text", async () => {
    const { repaired } = await repairedOnce({ repo: "r", draft: "True" }, "/draft");
    expect(repaired).toEqual({ repo: "r", draft: true });
  });

  it("a union of two scalar types without null", async () => {
    const { message, repaired } = await repairedOnce({ repo: "r", size: "12 kg" }, "/size");
    expect(message).toContain("send 12 as a JSON number");
    expect(repaired).toEqual({ repo: "r", size: 12 });
  });

  it("a value of a type some branch takes keeps that branch's message", async () => {
    const errors = (await loaded.envelope({ repo: "r", state: "opened" })) ?? [];
    expect(errors.find((error) => error.path === "/state")?.message).toContain('did you mean "open"?');
  });
});
