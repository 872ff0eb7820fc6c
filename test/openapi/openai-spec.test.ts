// OpenAI's own API description, as OpenAI published it (version 2.0.0, OpenAPI 3.0.0, 57
// operations; the @opensdks/sdk-openai package ships it unchanged as openai.oas.json). The promise
// under test: a valid call is never rejected.
//
// - Every operation's documented request examples (the curl commands in `x-oaiMeta`) are accepted
//   by the generated tool, unless the description as written rejects them too (named below).
// - Every discriminated union its request bodies use (OpenAI's are `oneOf`s whose branches each
//   say their own `role` or `type`): a valid call for every branch is accepted, as written and
//   with OpenAI's later `discriminator: {propertyName}` without `mapping` added to each union.
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import type { LoadedDocument } from "../../generator/load/load-document.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { asWrittenValidators } from "../helpers/as-written.ts";
import { argumentsFor, curlExamples, parseCurl } from "../helpers/curl-examples.ts";
import { requiredParameterValues } from "../helpers/openapi-samples.ts";
import { at, sample, unionsUnder } from "../helpers/union-calls.ts";

const require = createRequire(import.meta.url);
const FILE = require.resolve("@opensdks/sdk-openai/openai.oas.json");

type Schema = Record<string, unknown>;

/** Operations the description as written makes impossible, each skipped by toolguard with this reason. */
const IMPOSSIBLE = {
  // CreateRunRequest and CreateThreadAndRunRequest require `thread_id`, which their
  // `additionalProperties: false` forbids (OpenAI fixed it in a later version): every body fails as written.
  createRun: "is required but additionalProperties: false forbids it",
  createThreadAndRun: "is required but additionalProperties: false forbids it",
};

const bodyPointer = (tool: ToolDescription): string =>
  `${tool.source.pointer}/requestBody/content/${tool.http!.body!.contentType.replaceAll("~", "~0").replaceAll("/", "~1")}/schema`;

function validator(tool: ToolDescription): (data: unknown) => boolean {
  const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
  return ajv.compile(compiled);
}

/** Query values arrive as text in a URL; numbers are what the model sends (and what coercion makes). */
function typedQuery(tool: ToolDescription, args: Record<string, unknown>): Record<string, unknown> {
  const properties = tool.inputSchema.properties as Record<string, Schema>;
  const out = { ...args };
  for (const [name, value] of Object.entries(args)) {
    const type = properties[name]?.type;
    if (name !== "body" && typeof value === "string" && (type === "integer" || type === "number") && value.trim() !== "") out[name] = Number(value);
  }
  return out;
}

describe("OpenAI's API description (@opensdks/sdk-openai openai.oas.json, 3.0.0)", () => {
  let loaded: LoadedDocument;
  let document: Schema;
  let result: ReadResult;
  let asWritten: (pointer: string) => (data: unknown) => boolean;

  beforeAll(async () => {
    loaded = await loadOpenApiDocument(FILE, { root: path.dirname(FILE) });
    document = loaded.document as Schema;
    result = readOpenApi(loaded);
    asWritten = asWrittenValidators(document);
  });

  it("every operation with a JSON body or none becomes a tool; the rest are skipped, each with its reason", () => {
    const operations = Object.values(document.paths as Record<string, Schema>).flatMap((item) =>
      ["get", "put", "post", "delete", "patch"].filter((method) => item[method]),
    );
    expect(operations).toHaveLength(57);
    const skipped = Object.fromEntries(result.skipped.map((skip) => [skip.name, skip.reason]));
    for (const [name, reason] of Object.entries(IMPOSSIBLE)) expect(skipped[name]).toContain(reason);
    const multipart = result.skipped.filter((skip) => /multipart\/form-data: the part "[^"]+" is a file/.test(skip.reason)).map((skip) => skip.name);
    expect(multipart.sort()).toEqual(["createFile", "createImageEdit", "createImageVariation", "createTranscription", "createTranslation"]);
    expect(result.tools.length + result.skipped.length).toBe(57);
    expect(result.tools).toHaveLength(50);
  });

  it("every documented request example is accepted by its generated tool", () => {
    const base = (document.servers as { url: string }[])[0]!.url;
    let checked = 0;
    const rejected: string[] = [];
    const notTools: string[] = [];
    for (const [template, item] of Object.entries(document.paths as Record<string, Schema>)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = (operation as Schema).operationId as string;
        for (const curl of curlExamples(operation)) {
          const example = parseCurl(curl);
          const tool = result.tools.find((candidate) => candidate.name === name);
          if (!tool) {
            notTools.push(`${name}${example.form ? " (multipart form)" : ""}`);
            if (name in IMPOSSIBLE)
              expect(asWritten(`/paths/${template.replaceAll("/", "~1")}/${method}/requestBody/content/application~1json/schema`)(example.body)).toBe(false);
            continue;
          }
          const args = argumentsFor(template, base, example);
          expect(args, `${name}: ${example.url}`).toBeDefined();
          checked++;
          const validate = validator(tool);
          if (!validate(typedQuery(tool, args!))) rejected.push(`${name}: ${JSON.stringify(args).slice(0, 200)}`);
        }
      }
    }
    console.log(`OpenAI: ${checked} documented request examples accepted; not tools: ${notTools.join(", ")}`);
    expect(notTools.sort()).toEqual([
      "createFile (multipart form)",
      "createImageEdit (multipart form)",
      "createImageVariation (multipart form)",
      "createRun",
      "createThreadAndRun",
      "createTranscription (multipart form)",
      "createTranslation (multipart form)",
    ]);
    expect(checked).toBe(58); // of 65: 5 multipart uploads, and the two operations above
    expect(rejected).toEqual([]);
  });

  it("createChatCompletion accepts a call with every message role and content part", () => {
    const validate = validator(result.tools.find((tool) => tool.name === "createChatCompletion")!);
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", content: "42", tool_call_id: "call_1" },
      { role: "function", content: "42", name: "f" },
    ];
    expect(validate({ body: { model: "gpt-4", messages } })).toBe(true);
    expect(validate({ body: { model: "gpt-4", messages: [{ role: "ChatCompletionRequestUserMessage", content: "hi" }] } })).toBe(false);
  });

  for (const variant of ["as written", "with discriminator: {propertyName} and no mapping on each union"] as const) {
    it(`every branch of every discriminated union in a request body is accepted (${variant})`, () => {
      let read = result;
      if (variant !== "as written") {
        const copy = structuredClone(loaded) as LoadedDocument;
        for (const { union } of allUnions(result, copy.document as Schema)) {
          (at(copy.document, union.pointer) as Schema).discriminator = { propertyName: union.property };
        }
        read = readOpenApi(copy);
        expect(read.tools.map((tool) => tool.name)).toEqual(result.tools.map((tool) => tool.name));
      }
      const unions = new Set<string>();
      let calls = 0;
      const refused: string[] = [];
      const unbuilt: string[] = [];
      for (const { tool, steps, union } of allUnions(result, document)) {
        unions.add(union.pointer);
        const validate = validator(read.tools.find((candidate) => candidate.name === tool.name)!);
        for (const branch of union.branches) {
          const body = sample(document, bodyPointer(tool), [...steps, { via: branch }]);
          if (!asWritten(bodyPointer(tool))(body)) {
            unbuilt.push(`${tool.name} ${branch}`);
            continue;
          }
          calls++;
          if (!validate({ ...requiredParameterValues(tool), body })) refused.push(`${tool.name} ${branch}: ${JSON.stringify(body).slice(0, 200)}`);
        }
      }
      console.log(
        `OpenAI (${variant}): ${unions.size} discriminated unions in request bodies (${[...unions].join(", ")}), ${calls} calls (one per branch and place), ${unbuilt.length} not built`,
      );
      // The messages of createChatCompletion (5 roles), their content parts (2 types), and the tools
      // of createAssistant and modifyAssistant (3 types each).
      expect([...unions].sort()).toEqual([
        "/components/schemas/ChatCompletionRequestMessage",
        "/components/schemas/ChatCompletionRequestMessageContentPart",
        "/components/schemas/CreateAssistantRequest/properties/tools/items",
        "/components/schemas/ModifyAssistantRequest/properties/tools/items",
      ]);
      expect(unbuilt).toEqual([]);
      expect(refused).toEqual([]);
    });
  }
});

function allUnions(result: ReadResult, document: Schema) {
  return result.tools.filter((tool) => tool.http?.body).flatMap((tool) => unionsUnder(document, bodyPointer(tool)).map((found) => ({ tool, ...found })));
}
