// Issue 31: a union of string values, or of a value list and a pattern, heard only "matches none
// of the allowed shapes", while raw ajv at least listed the values of each branch. The message
// now lists the values and the patterns, and the value the text most plausibly means.
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool } from "../../generator/rehearse/load-tool.ts";

const tool: ToolDescription = {
  name: "set_model",
  description: "Pick a model",
  dialect: "2020-12",
  references: {},
  source: { file: "set-model.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["model", "size"],
    properties: {
      model: {
        anyOf: [
          { type: "string", enum: ["gpt-large", "gpt-small"] },
          { type: "string", pattern: "^ft:[a-z0-9-]+$" },
        ],
      },
      size: { oneOf: [{ const: "compact" }, { const: "detailed" }] },
    },
  },
};

describe("a union of listed values and patterns", () => {
  it("lists the values and the pattern, and offers the value a near miss means", async () => {
    const loaded = await loadTool(tool);
    const sent = { model: "GPT-Large", size: "detail" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.map((error) => error.message)).toEqual([
      'got string "GPT-Large"; it matches none of the allowed shapes; allowed values: ["gpt-large", "gpt-small"]; or a string matching "^ft:[a-z0-9-]+$" — did you mean "gpt-large"?',
      'got string "detail"; it matches none of the allowed shapes; allowed values: ["compact", "detailed"] — did you mean "detailed"?',
    ]);
    const repaired = repair(sent, errors);
    expect(await loaded.envelope(repaired)).toBeUndefined();
  });
});
