// A format toolguard has no checker for (`format: "starts_with"`, as Mapbox's devkit MCP server
// writes it on its access token) is an annotation in the generated validator. `toolguard
// rehearse` also compiled the schema with plain ajv, as the baseline, and that refused the
// format: one such tool ended the whole rehearsal with "internal error" and a stack trace.
import { afterAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { rehearseTool } from "../../generator/rehearse/rehearse.ts";

afterAll(removeLoadedModules);

const tool = (dialect: ToolDescription["dialect"]): ToolDescription => ({
  name: `preview_style_${dialect === "2020-12" ? "2020" : "07"}`,
  description: "Preview a map style",
  dialect,
  references: {},
  source: { file: "preview.json", pointer: "" },
  inputSchema: {
    type: "object",
    properties: {
      accessToken: { type: "string", format: "starts_with", description: "a public token, pk.*" },
      zoom: { type: "integer", minimum: 0, maximum: 22 },
    },
    required: ["accessToken", "zoom"],
    additionalProperties: false,
  },
});

describe("a tool with a format toolguard does not know", () => {
  for (const dialect of ["2020-12", "draft-07"] as const) {
    it(`${dialect}: the baseline reads the format as an annotation, as the guard does`, async () => {
      const loaded = await loadTool(tool(dialect));
      expect(loaded.ajvErrors({ accessToken: "anything at all", zoom: 3 })).toBeUndefined();
      expect(loaded.ajvErrors({ accessToken: "pk.x", zoom: 30 })?.map((error) => error.path)).toEqual(["/zoom"]);
      expect(await loaded.envelope({ accessToken: "anything at all", zoom: 3 })).toBeUndefined();
    });
  }

  it("is rehearsed: a valid call, and cases for its mistakes", async () => {
    const rehearsed = await rehearseTool(tool("2020-12"), { seed: 1, limit: 40 });
    expect(rehearsed.note).toBeUndefined();
    expect(rehearsed.validCall).toMatchObject({ accessToken: expect.any(String), zoom: expect.any(Number) });
    expect(rehearsed.cases.length).toBeGreaterThan(5);
  });
});
