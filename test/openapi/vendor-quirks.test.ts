// Constructs from OpenAI's API description that made toolguard reject valid calls or skip
// headline operations (fixtures/openapi/vendor-quirks-3.1.yaml): a discriminator without
// mapping whose branches say their own `role`, `$recursiveRef`, a misspelt `min_items`, and a
// `$dynamicRef`. Validators are compiled as generated packages compile them (prepareCompile).
import path from "node:path";
import { Ajv2019 } from "ajv/dist/2019.js";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import { InputErrors } from "../../generator/errors.ts";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { warningLines } from "../../generator/read-summary.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");
const FILE = "vendor-quirks-3.1.yaml";

function validator(tool: ToolDescription) {
  const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
  return ajv.compile(compiled);
}

describe("OpenAI-style constructs", () => {
  let result: ReadResult;
  let document: Record<string, Record<string, Record<string, unknown>>>;
  const tool = (name: string): ToolDescription => result.tools.find((candidate) => candidate.name === name)!;

  beforeAll(async () => {
    const loaded = await loadOpenApiDocument(path.join(root, FILE), { root });
    document = loaded.document as typeof document;
    result = readOpenApi(loaded);
  });

  it("no operation is skipped", () => {
    expect(result.skipped).toEqual([]);
    expect(result.tools.map((candidate) => candidate.name).sort()).toEqual(["createChatCompletion", "createConversation", "plantTree", "searchVectorStore"]);
  });

  it("a discriminated union without mapping accepts a valid call for every branch", () => {
    const validate = validator(tool("createChatCompletion"));
    const messages = [
      { role: "developer", content: "Be brief." },
      { role: "system", content: "You are terse." },
      { role: "user", content: "hi" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: null, tool_calls: [{}] },
      { role: "tool", content: "42", tool_call_id: "call_1" },
    ];
    for (const message of messages) expect(validate({ body: { model: "gpt-x", messages: [message] } }), JSON.stringify(message)).toBe(true);
    // The documented example, and the component's name is no value here.
    expect(
      validate({
        body: {
          model: "gpt-x",
          messages: [
            { role: "developer", content: "Be brief." },
            { role: "user", content: "hi" },
          ],
        },
      }),
    ).toBe(true);
    expect(validate({ body: { model: "gpt-x", messages: [{ role: "ChatCompletionRequestUserMessage", content: "hi" }] } })).toBe(false);
    expect(validate({ body: { model: "gpt-x", messages: [{ role: "tool", content: "42" }] } })).toBe(false);
  });

  it("$recursiveRef resolves to the schema with $recursiveAnchor, with ajv's 2019-09 verdicts", () => {
    const validate = validator(tool("searchVectorStore"));
    // ajv on the component as written, the component as its own schema resource.
    const components = document.components!.schemas!;
    const ajv = new Ajv2019({ strict: false });
    ajv.addSchema({ ...(components.ComparisonFilter as object), $id: "https://x.test/ComparisonFilter" });
    const asWritten = ajv.compile(
      JSON.parse(JSON.stringify(components.CompoundFilter).replaceAll("#/components/schemas/ComparisonFilter", "https://x.test/ComparisonFilter")),
    );
    const leaf = { type: "eq", key: "region", value: "eu" };
    const filters = [
      { type: "and", filters: [leaf] },
      { type: "or", filters: [leaf, { type: "and", filters: [leaf, { type: "or", filters: [] }] }] },
      { type: "and", filters: [{ type: "and", filters: [{ type: "xor", filters: [] }] }] },
      { type: "and", filters: [{ type: "eq", key: "a" }] },
      { type: "and", filters: [{ type: "or", filters: [leaf], extra: 1 }] },
    ];
    for (const filter of filters) {
      expect(validate({ body: { query: "q", filters: filter } }), JSON.stringify(filter)).toBe(asWritten(filter));
    }
    expect(filters.map((filter) => asWritten(filter))).toEqual([true, true, false, false, false]);
  });

  it("$dynamicRef with one $dynamicAnchor in the document resolves to it", () => {
    const validate = validator(tool("plantTree"));
    expect(validate({ body: { name: "oak", children: [{ name: "acorn", children: [] }] } })).toBe(true);
    expect(validate({ body: { name: "oak", children: [{ name: 7 }] } })).toBe(false);
  });

  it("an unknown keyword in the vendor's document is left out with a warning naming where", () => {
    const conversation = tool("createConversation");
    expect(conversation.warnings).toEqual([
      expect.stringContaining(
        "unknown keyword `min_items` at #/paths/~1conversations/post/requestBody/content/application~1json/schema/properties/items/min_items",
      ),
    ]);
    expect(validator(conversation)({ body: { items: [] } })).toBe(true); // an annotation, as JSON Schema reads it
    expect(warningLines(result.tools)).toEqual([
      "1 warning:",
      expect.stringMatching(/^ {2}vendor-quirks-3\.1\.yaml: unknown keyword `min_items` at #\/paths.*\(tool createConversation\)$/),
    ]);
  });

  it("--strict still refuses the unknown keyword", async () => {
    const error = await loadOpenApiDocument(path.join(root, FILE), { root })
      .then((loaded) => readOpenApi(loaded, { strict: true }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputErrors);
    expect((error as InputErrors).format()).toMatch(/createConversation cannot become a tool: unknown keyword `min_items`/);
  });
});
