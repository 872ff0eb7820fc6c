// A `$ref` inside data (an example, a default, an enum or const value, an `x-` extension's value)
// is a member of a value, never a reference. PagerDuty's description writes
// `example: {$ref: "#/components/examples/.../value"}` in a schema; json-schema-to-typescript's
// ref-parser followed it and generation failed (issue 32). The loader followed one in `enum`,
// `const`, `default` or an `x-` value, so a dangling one refused the whole document. Each is
// now data everywhere: no loader (the one-file walk, json-schema-ref-parser, the split bundler)
// follows it, and the guard accepts exactly the values written.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withoutAdvice } from "../helpers/advice-output.ts";
import { type TempProject, mcpTool, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const newProject = projectsRemovedAfterEach();

const info = { title: "t", version: "1" };
const body = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
const operation = (operationId: string, schema: unknown) => ({ post: { operationId, requestBody: body(schema), responses: { 200: { description: "ok" } } } });
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

/** One operation per data-valued keyword, each holding a `$ref` that points at nothing. */
function dataRefPaths(): Record<string, unknown> {
  return {
    "/enum": operation("enumRef", object({ a: { enum: [{ $ref: "#/nope/enum" }, "plain"] } }, { required: ["a"] })),
    "/const": operation("constRef", object({ a: { const: { $ref: "#/nope/const" } } }, { required: ["a"] })),
    "/default": operation("defaultRef", object({ a: { type: "object", default: { $ref: "#/nope/default" } } })),
    "/example": operation("exampleRef", object({ a: { type: "object", example: { $ref: "#/nope/example" } } })),
    "/examples": operation("examplesRef", object({ a: { type: "object", examples: [{ $ref: "#/nope/examples" }] } })),
    "/extension": operation("extensionRef", object({ a: { type: "string", "x-vendor": { nested: [{ $ref: "#/nope/x" }] } } })),
    // Names that look like data keywords are names: `default` and `enum` properties are schemas.
    "/names": operation(
      "namedLikeKeywords",
      object({ default: { $ref: "#/components/schemas/Flag" }, enum: { $ref: "#/components/schemas/Flag" } }, { required: ["default"] }),
    ),
  };
}

const components = {
  schemas: { Flag: { type: "boolean" }, Real: object({ b: { type: "integer" } }), Alias: { $ref: "#/components/schemas/Real" } },
  // An Example Object's `value` is data; its own `$ref` (here, none) would be a reference.
  examples: { E: { summary: "s", value: { $ref: "#/nope/example-value" } } },
};

async function generate(files: Record<string, unknown>): Promise<{ project: TempProject; stdout: string; code: number; stderr: string }> {
  const project = newProject(files);
  const result = await project.run("generate", "--no-cache");
  return { project, ...result };
}

async function verdict(project: TempProject, tool: string, args: unknown): Promise<string> {
  const pkg = await import(path.join(project.dir, "generated/index.js"));
  const guarded = pkg[tool].implement(() => "ran", { ledger: new pkg.MemorySink() });
  const outcome = await guarded.call(JSON.stringify(args), { turn: "t" });
  return outcome.status;
}

const tools = ["enumRef", "constRef", "defaultRef", "exampleRef", "examplesRef", "extensionRef", "namedLikeKeywords"];

describe("$ref-shaped data in a schema", () => {
  it("in an example is data: the operation becomes a tool", async () => {
    const { project, stdout, stderr, code } = await generate({
      "schemas/api.json": {
        openapi: "3.0.3",
        info,
        paths: {
          "/x": operation(
            "make_x",
            object({ a: { type: "integer", example: { $ref: "#/components/examples/E/value" } } }, { example: { $ref: "#/components/examples/E/value" } }),
          ),
        },
        components: { examples: { E: { summary: "s", value: { a: 1 } } } },
      },
    });
    expect(withoutAdvice(stderr)).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("generated: 1 tool,");
    expect(stdout).not.toContain("skipped");
    expect(project.read("generated/tools/make-x.d.ts")).not.toMatch(/_tg\d/);
  });

  // The document takes each of the loader's three ways: the one-file walk (every `$ref` a plain
  // pointer), json-schema-ref-parser (a `$ref` through another `$ref`), the split bundler (a
  // `$ref` to another file).
  const layouts: Record<string, () => Record<string, unknown>> = {
    "one file, plain pointers": () => ({ "schemas/api.json": { openapi: "3.0.3", info, paths: dataRefPaths(), components } }),
    "one file, bundled by json-schema-ref-parser": () => ({
      "schemas/api.json": {
        openapi: "3.0.3",
        info,
        paths: { ...dataRefPaths(), "/through": operation("throughRef", { $ref: "#/components/schemas/Alias/properties/b" }) },
        components,
      },
    }),
    "split over files": () => ({
      "schemas/api.json": {
        openapi: "3.0.3",
        info,
        paths: { ...dataRefPaths(), "/split": { $ref: "paths/split.json" } },
        components,
      },
      "schemas/paths/split.json": operation("splitRef", object({ a: { enum: [{ $ref: "#/nope/in-file" }], default: { $ref: "../nope.json" } } })),
    }),
  };

  for (const [layout, files] of Object.entries(layouts)) {
    it(`in enum, const, default, example(s) or an x- value never refuses the document (${layout})`, async () => {
      const { project, stdout, stderr, code } = await generate(files());
      expect(withoutAdvice(stderr)).toBe("");
      expect(code).toBe(0);
      expect(stdout).not.toContain("skipped");
      const pkg = await import(path.join(project.dir, "generated/index.js"));
      const own = layout.startsWith("split") ? ["splitRef"] : layout.includes("ref-parser") ? ["throughRef"] : [];
      for (const tool of [...tools, ...own]) expect(pkg[tool], tool).toBeDefined();
      // The values stay exactly as written: the `$ref` object is the allowed value, no other.
      expect(await verdict(project, "enumRef", { body: { a: { $ref: "#/nope/enum" } } })).toBe("ok");
      expect(await verdict(project, "enumRef", { body: { a: "plain" } })).toBe("ok");
      expect(await verdict(project, "enumRef", { body: { a: { $ref: "#/other" } } })).not.toBe("ok");
      expect(await verdict(project, "constRef", { body: { a: { $ref: "#/nope/const" } } })).toBe("ok");
      expect(await verdict(project, "constRef", { body: { a: {} } })).not.toBe("ok");
      expect(await verdict(project, "namedLikeKeywords", { body: { default: true, enum: false } })).toBe("ok");
      expect(await verdict(project, "namedLikeKeywords", { body: { default: "yes" } })).not.toBe("ok");
      const defaults = JSON.parse(JSON.stringify(pkg.defaultRef.inputSchema));
      expect(JSON.stringify(defaults)).toContain('{"$ref":"#/nope/default"}');
    });
  }

  // A tool file's schema is bundled, then cut out on its own (localizeSchema): data stays data,
  // byte for byte (a `%` or a space in it is no pointer encoding).
  it("in a tool file's schema is data too", async () => {
    const schema = {
      type: "object",
      properties: {
        a: { enum: [{ $ref: "#/nope/100% enum" }], default: { $ref: "#/nope/default" } },
        b: { $ref: "#/$defs/B" },
      },
      required: ["a"],
      $defs: { B: { const: { $ref: "#/$defs/B" } } },
    };
    const { project, stdout, stderr, code } = await generate({ "schemas/pick.json": mcpTool("pick", schema) });
    expect(withoutAdvice(stderr)).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("generated: 1 tool,");
    expect(await verdict(project, "pick", { a: { $ref: "#/nope/100% enum" } })).toBe("ok");
    expect(await verdict(project, "pick", { a: { $ref: "#/nope/100%25%20enum" } })).not.toBe("ok");
    expect(await verdict(project, "pick", { a: { $ref: "#/nope/100% enum" }, b: { $ref: "#/$defs/B" } })).toBe("ok");
    expect(await verdict(project, "pick", { a: { $ref: "#/nope/100% enum" }, b: {} })).not.toBe("ok");
  });
});
