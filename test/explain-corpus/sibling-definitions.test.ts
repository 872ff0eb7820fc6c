// Issue 31, "value of a sibling field" on real inputs (34%): the fields' enums were `$ref`s to
// definitions, so the error came at `#/$defs/Direction`, which names no field, and the explainer
// could not see the fields beside it. The hint table now carries each definition's referring
// property locations, and the sibling is looked for at each of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

const enumOf = (...values: string[]) => ({ type: "string", enum: values });

const tool: ToolDescription = {
  name: "list_items",
  description: "List items",
  dialect: "2020-12",
  references: {},
  source: { file: "list-items.json", pointer: "" },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      sort: { $ref: "#/$defs/SortField" },
      direction: { $ref: "#/$defs/Direction" },
      // The same definitions under other names, in another object: a value's sibling is its own holder's.
      filter: {
        type: "object",
        additionalProperties: false,
        properties: { order: { $ref: "#/$defs/Direction" }, state: enumOf("open", "closed") },
      },
      // Two fields sharing one definition: neither is the other's sibling for a value both refuse.
      since: { $ref: "#/$defs/Period" },
      // A set too large to list (Lago's currencies): its own near misses say which values it takes.
      currency: { $ref: "#/$defs/Currency" },
      country: { $ref: "#/$defs/Country" },
      until: { $ref: "#/$defs/Period" },
    },
    $defs: {
      SortField: enumOf("created", "updated", "name"),
      Direction: enumOf("asc", "desc"),
      Period: enumOf("day", "week"),
      Currency: enumOf(...Array.from({ length: 20 }, (_, i) => `C${String.fromCharCode(65 + i)}X`)),
      Country: enumOf(...Array.from({ length: 20 }, (_, i) => `country-${String.fromCharCode(97 + i)}`)),
    },
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

describe("a sibling field's value, both fields' enums being definitions", () => {
  it("is told to move to the sibling, and one literal round repairs the call", async () => {
    const sent = { direction: "created" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors.map((error) => error.message)).toEqual(['got string "created"; must be one of ["asc", "desc"]. It is a value of /sort: move it to /sort']);
    expect(await loaded.envelope(repair(sent, errors))).toBeUndefined();
    const back = { sort: "desc" };
    expect((await loaded.envelope(back))?.[0]?.message).toMatch(/It is a value of \/direction: move it to \/direction$/);
  });

  it("finds the sibling in the object the value is in, inline or by definition", async () => {
    const errors = (await loaded.envelope({ filter: { order: "open" } })) ?? [];
    expect(errors.map((error) => `${error.path}: ${error.message}`)).toEqual([
      '/filter/order: got string "open"; must be one of ["asc", "desc"]. It is a value of /filter/state: move it to /filter/state',
    ]);
  });

  it("finds it when both sets are too large to list", async () => {
    const sent = { country: "CBX" };
    const errors = (await loaded.envelope(sent)) ?? [];
    expect(errors[0]?.message).toMatch(/It is a value of \/currency: move it to \/currency$/);
    expect(await loaded.envelope(repair(sent, errors))).toBeUndefined();
  });

  it("offers no move when the sibling is in the call, or when no sibling allows the value", async () => {
    expect((await loaded.envelope({ direction: "created", sort: "name" }))?.[0]?.message).toBe('got string "created"; must be one of ["asc", "desc"]');
    expect((await loaded.envelope({ since: "asc", direction: "asc" }))?.[0]?.message).toBe('got string "asc"; must be one of ["day", "week"]');
    expect((await loaded.envelope({ since: "month" }))?.[0]?.message).toBe('got string "month"; must be one of ["day", "week"]');
  });
});
