// Fresh inputs, round 15 (probe14): shapes found by `toolguard rehearse` on vendors' own
// descriptions that none of the messages was written against (docs/corpus.md, round 15).
import { afterAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";

afterAll(removeLoadedModules);

function tool(name: string, inputSchema: JsonSchema): ToolDescription {
  return { name, description: "", inputSchema, dialect: "2020-12", references: {}, source: { file: `${name}.json`, pointer: "" } };
}

async function roundTrip(description: ToolDescription, sent: unknown) {
  const loaded = await loadTool(description);
  const errors = (await loaded.envelope(sent)) ?? [];
  const repaired = repair(sent, errors);
  return { errors, repaired, after: await loaded.envelope(repaired) };
}

// listmonk's `per_page` (knadh/listmonk docs/swagger/collections.yaml): "an integer for a page
// size or 'all'". A number written with a unit or sign, or Python's None, is a string, so the
// string branch was singled out and its enum said `must be exactly "all"`: the repairer sent
// "all", every result instead of five.
const listmonk = tool("get_lists", {
  type: "object",
  additionalProperties: false,
  properties: {
    query: { type: "string" },
    per_page: {
      description: "Number of items per page. Use an integer for specific page size or 'all' to retrieve all results",
      oneOf: [
        { type: "integer", description: "Number of items to return per page" },
        { type: "string", enum: ["all"], description: "Return all results without pagination" },
      ],
    },
  },
});

describe("a number or a listed word (listmonk's per_page), sent as a text that carries a number", () => {
  it.each([["+5"], ["5 items"], ["#5"]])("%s is read as the number it carries", async (text) => {
    const { errors, repaired, after } = await roundTrip(listmonk, { query: "news", per_page: text });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("/per_page");
    expect(errors[0]?.message).toMatch(/send 5 as a JSON number/);
    expect(repaired).toEqual({ query: "news", per_page: 5 });
    expect(after).toBeUndefined();
  });

  it("Python's None for it, optional, is omitted", async () => {
    const { errors, repaired, after } = await roundTrip(listmonk, { query: "news", per_page: "None" });
    expect(errors[0]?.message).toMatch(/omit it/);
    expect(repaired).toEqual({ query: "news" });
    expect(after).toBeUndefined();
  });

  it("a near miss of the word is still the word", async () => {
    const { errors, repaired } = await roundTrip(listmonk, { per_page: "All" });
    expect(errors[0]?.message).not.toMatch(/JSON number/);
    expect(repaired).toEqual({ per_page: "all" });
  });
});
