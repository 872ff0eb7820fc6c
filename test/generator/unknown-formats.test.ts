// A format toolguard has no checker for is an annotation (JSON Schema 2020-12, OpenAPI): Notion's
// MCP server declares `format: "json"` and was refused whole (issue 32). It is generated with a
// warning naming the file, the tool and the place; `unknownFormats: "refuse"` refuses it.
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.ts";
import { checkUnknownFormats, KNOWN_FORMATS } from "../../generator/read/unknown-formats.ts";
import { emitAndLoad, toolOf } from "../hostile/load-validator.ts";
import { TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

// The shape of Notion's API-post-page (notion-mcp-server 2.5.2): an icon sent as JSON text.
const NOTION_PAGE = {
  name: "API-post-page",
  description: "Create a page",
  inputSchema: {
    type: "object",
    properties: {
      parent: { type: "object", properties: { page_id: { type: "string", format: "uuid" } }, required: ["page_id"] },
      icon: { type: "string", format: "json", description: "Icon as a JSON string" },
      cover: { type: "array", items: { type: "string", format: "x-cover" } },
    },
    required: ["parent"],
  },
};

describe("unknown formats", () => {
  it("are annotations: the tool is generated, the formats unchecked, known ones still checked", async () => {
    const { validate } = await emitAndLoad(NOTION_PAGE.inputSchema);
    const parent = { page_id: "1f0b4b3e-8e1a-4c39-9f8a-0c3f2a9d1e55" };
    expect(validate({ parent, icon: '{"emoji":"🎉"}', cover: ["anything"] })).toBe(true);
    expect(validate({ parent, icon: "not json at all" })).toBe(true);
    expect(validate({ parent: { page_id: "not-a-uuid" } })).toBe(false);
    expect(validate({ parent, icon: 5 })).toBe(false);
  });

  it("generate writes the package and warns with the file, the tool and each format's place", async () => {
    project = new TempProject({ "schemas/notion.json": NOTION_PAGE });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'notion.json: unknown format "json" at input schema #/properties/icon: an annotation, shown to the model, not checked (tool API-post-page)',
    );
    expect(result.stdout).toContain('notion.json: unknown format "x-cover" at input schema #/properties/cover/items');
    expect(Object.keys(project.snapshot("generated"))).toContain("tools/api-post-page.js");
  });

  it('a set with unknownFormats: "refuse" refuses the tool, naming file, tool, format and place, and writes nothing', async () => {
    project = new TempProject({
      "schemas/notion.json": NOTION_PAGE,
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", unknownFormats: "refuse" }] },
    });
    const result = await project.run("generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /notion\.json: tool API-post-page: unknown format "json" at input schema #\/properties\/icon \(the set sets unknownFormats: "refuse"\)/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(() => project?.snapshot("generated")).toThrow();
  });

  it("the option takes only annotate or refuse", async () => {
    project = new TempProject({
      "schemas/notion.json": NOTION_PAGE,
      "toolguard.config.json": { sets: [{ schemas: "schemas", out: "generated", unknownFormats: "ignore" }] },
    });
    const result = await project.run("generate");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sets\[0\]\.unknownFormats must be "annotate" or "refuse"/);
  });

  it("every format the runtime checks or knows is no warning, under every schema keyword", () => {
    for (const format of KNOWN_FORMATS) {
      const schema = { type: "object", properties: { a: { type: "string", format } }, $defs: { d: { anyOf: [{ format }] } } };
      expect(checkUnknownFormats(toolOf(schema), "refuse").warnings).toBeUndefined();
    }
    const nested = { type: "object", $defs: { d: { items: { not: { format: "json" } } } } };
    expect(checkUnknownFormats(toolOf(nested), "annotate").warnings).toEqual([
      'unknown format "json" at input schema #/$defs/d/items/not: an annotation, shown to the model, not checked',
    ]);
    expect(() => checkUnknownFormats(toolOf(nested), "refuse")).toThrow(InputError);
  });
});
