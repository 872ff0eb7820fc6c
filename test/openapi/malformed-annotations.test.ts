// An annotation of the wrong shape asserts nothing, yet it cost its whole operation: SendGrid's
// description writes a schema's `examples` as an OpenAPI Example map (`{value: ...}`) where JSON
// Schema wants an array ("a schema's `examples` must be an array"), and a `description: 42` or
// `deprecated: "yes"` made the emitted validator fail the meta-schema ("does not compile"). Each
// is left out with a warning naming its pointer; --strict still refuses it.
// Fixture: fixtures/openapi/malformed-annotations.json.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileValidator } from "../../generator/emit/validator.ts";
import { InputError, InputErrors } from "../../generator/errors.ts";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import type { LoadedDocument } from "../../generator/load/load-document.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

/** Compiled as a generated package compiles it: the schema checked against its meta-schema first. */
function compiles(tool: ToolDescription): boolean {
  try {
    compileValidator(tool);
    return true;
  } catch {
    return false;
  }
}

describe("malformed annotations", () => {
  let loaded: LoadedDocument;
  let result: ReadResult;
  const tool = (name: string) => result.tools.find((candidate) => candidate.name === name);
  beforeAll(async () => {
    loaded = await loadOpenApiDocument(path.join(root, "malformed-annotations.json"), { root });
    result = readOpenApi(loaded);
  });

  it("cost no operation: both tools are read and their validators compile", () => {
    expect(result.skipped).toEqual([]);
    expect(result.tools.map((candidate) => candidate.name).sort()).toEqual(["odd_annotations", "toggle_webhook"]);
    for (const candidate of result.tools) expect(compiles(candidate), candidate.name).toBe(true);
  });

  it("each one left out is named with its pointer and what JSON Schema wants there", () => {
    const examples = tool("toggle_webhook")?.warnings ?? [];
    expect(examples).toEqual([
      expect.stringMatching(
        /^`examples` at #\/paths\/~1webhooks~1\{id\}\/patch\/requestBody\/.*\/schema\/examples left out: JSON Schema wants an array of values/,
      ),
    ]);
    const odd = (tool("odd_annotations")?.warnings ?? []).map((warning) => warning.split(" left out")[0]);
    expect(odd).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^`title` at #.*\/schema\/title$/),
        expect.stringMatching(/^`description` at #.*\/schema\/description$/),
        expect.stringMatching(/^`deprecated` at #.*\/properties\/text\/deprecated$/),
        expect.stringMatching(/^`readOnly` at #.*\/properties\/text\/readOnly$/),
        expect.stringMatching(/^`\$comment` at #.*\/properties\/text\/\$comment$/),
      ]),
    );
    expect(odd).toHaveLength(5);
    // The rest of the schema is kept as written.
    const body = (tool("toggle_webhook")!.inputSchema as { properties: Record<string, { required?: string[] }> }).properties.body;
    expect(body?.required).toEqual(["enabled"]);
  });

  it("--strict refuses them, naming the place", () => {
    let thrown: unknown;
    try {
      readOpenApi(loaded, { strict: true });
    } catch (error) {
      thrown = error;
    }
    const errors = thrown instanceof InputErrors ? thrown.errors : thrown instanceof InputError ? [thrown] : [];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((error) => error.format()).join("\n")).toMatch(/examples|title|description/);
  });
});
