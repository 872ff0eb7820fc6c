// OpenAI's current description (3.1; the corpus's copy, test/corpus/vendor/openai-openapi):
// `createResponse` must accept every structured input item the schema as written accepts
// (issue 32: only a plain message got through, so an agent could never send a tool result back). The discriminator over `InputItem`
// has no mapping; its branch `Item` is itself a oneOf of messages, function calls and their
// outputs, and `ItemReferenceParam` says `type: {anyOf: [{enum: [item_reference]}, {type: null}]}`.
// Pinning those branches to their component names ("Item", "ItemReferenceParam") refused them:
// the branch's own values decide (generator/read/openapi/discriminator.ts). ajv on the schema as
// written is the judge.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { asWrittenValidators } from "../helpers/as-written.ts";

const root = path.resolve(import.meta.dirname, "../corpus/vendor/openai-openapi");

/** One input item of each kind an agent sends back, each valid on the schema as written. */
const ITEMS: Record<string, unknown> = {
  "a plain message": { role: "user", content: "What is the weather in Paris?" },
  "a function call": { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
  "a function call's output": { type: "function_call_output", call_id: "call_1", output: '{"temp_c":21}' },
  "an item reference": { type: "item_reference", id: "msg_123" },
  "an item reference without its type": { id: "msg_123" },
  "a reasoning item": { type: "reasoning", id: "rs_1", summary: [] },
  "an assistant message passed back": {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "It is 21 °C.", annotations: [], logprobs: [] }],
  },
};

let createResponse: ToolDescription;
let asWritten: (data: unknown) => boolean;
let guard: (data: unknown) => boolean;
let guardErrors: () => unknown;

beforeAll(async () => {
  const { tools } = readOpenApi(await loadOpenApiDocument(path.join(root, "openapi.json"), { root }));
  createResponse = tools.find((tool) => tool.name === "createResponse") as ToolDescription;
  asWritten = asWrittenValidators(JSON.parse(readFileSync(path.join(root, "openapi.json"), "utf8")))("/components/schemas/CreateResponse");
  const validate = new Ajv2020({ strict: true, allErrors: true, formats: Object.fromEntries(KEPT_FORMATS.map((name) => [name, true])) }).compile(
    createResponse.inputSchema as object,
  );
  guard = (data) => validate(data) as boolean;
  guardErrors = () => validate.errors?.slice(0, 3);
});

describe("OpenAI's createResponse (3.1, discriminator without mapping over unions)", () => {
  it.each(Object.entries(ITEMS))("accepts %s, as ajv does on the schema as written", (_kind, item) => {
    const body = { model: "gpt-4.1", input: [item] };
    expect(asWritten(body)).toBe(true);
    expect(guard({ body }), JSON.stringify(guardErrors())).toBe(true);
  });

  it("still refuses an item of no kind, as the schema does", () => {
    const body = { model: "gpt-4.1", input: [{ type: "no_such_item", id: "x" }] };
    expect(asWritten(body)).toBe(false);
    const validate = new Ajv2020({ strict: true, formats: Object.fromEntries(KEPT_FORMATS.map((name) => [name, true])) }).compile(
      createResponse.inputSchema as object,
    );
    expect(validate({ body })).toBe(false);
  });
});

describe("a discriminator branch's own values decide over its component name", () => {
  /** A body that is a oneOf, with a discriminator without mapping, of the components named in `union`. */
  const document = (union: readonly string[], schemas: Record<string, unknown>) => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/items": {
        post: {
          operationId: "addItem",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { oneOf: union.map((name) => ({ $ref: `#/components/schemas/${name}` })), discriminator: { propertyName: "kind" } },
              },
            },
          },
          responses: { 200: { description: "ok" } },
        },
      },
    },
    components: { schemas },
  });
  const accepts = (doc: ReturnType<typeof document>, body: unknown): boolean => {
    const [tool] = readOpenApi({ file: "t.json", document: doc }).tools;
    return new Ajv2020({ strict: true }).compile(tool?.inputSchema as object)({ body }) as boolean;
  };

  it("a branch that is itself a union allows the values of all its alternatives", () => {
    const doc = document(["Call", "Text"], {
      Call: { type: "object", oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
      Text: { type: "object", properties: { kind: { const: "text" }, text: { type: "string" } }, required: ["kind", "text"] },
      A: { type: "object", properties: { kind: { const: "a" }, x: { type: "string" } }, required: ["kind", "x"] },
      B: { type: "object", properties: { kind: { enum: ["b", "bb"] }, y: { type: "integer" } }, required: ["kind", "y"] },
    });
    expect(accepts(doc, { kind: "a", x: "1" })).toBe(true);
    expect(accepts(doc, { kind: "bb", y: 2 })).toBe(true);
    expect(accepts(doc, { kind: "text", text: "t" })).toBe(true);
    expect(accepts(doc, { kind: "Call", x: "1" })).toBe(false);
  });

  it("a property schema's anyOf of an enum and null allows both", () => {
    const doc = document(["Ref", "Text"], {
      Ref: { type: "object", properties: { kind: { anyOf: [{ enum: ["ref"] }, { type: "null" }] }, id: { type: "string" } }, required: ["id"] },
      Text: { type: "object", properties: { kind: { const: "text" }, text: { type: "string" } }, required: ["kind", "text"] },
    });
    expect(accepts(doc, { kind: "ref", id: "1" })).toBe(true);
    expect(accepts(doc, { kind: null, id: "1" })).toBe(true);
    expect(accepts(doc, { id: "1" })).toBe(true);
  });
});
