// Why the streamed loops read their streams with toolguard's helpers: the SDKs' own streaming
// helpers parse each call's text first and throw, before any adapter sees it, on exactly what
// the guard exists to explain and count. Measured with the real SDKs against the fake model's
// streaming wire formats; beside each, the helper that hands the raw text and finish reason on.
// Also measured: chat.completions.parse refuses a strict: "auto" tool list with a tool that
// cannot be strict (docs/adapters.md says so).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { LengthFinishReasonError } from "openai/core/error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySink, updateOrgChart } from "../../generated/index.js";
import { messageFromStream } from "../../generated/extras/anthropic/index.js";
import { chatCompletionFromStream, openAiTools, responseFromStream } from "../../generated/extras/openai/index.js";
import { startFakeModel, type FakeModel } from "./fake-model-server.ts";
import { CUT_OFF, invoiceBench, NOT_JSON, TOOL } from "./invoice-script.ts";

const question = [{ role: "user" as const, content: "Invoice Acme BV" }];

describe("OpenAI Chat Completions streams, strict tools", () => {
  let fake: FakeModel;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeModel("chat");
    client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());
  const tools = () => openAiTools([invoiceBench().tool], { strict: "auto" }).chat;

  it("chat.completions.stream() throws LengthFinishReasonError on a cut-off call; chatCompletionFromStream hands it on", async () => {
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }]);
    await expect(client.chat.completions.stream({ model: "gpt-5", messages: question, tools: tools() }).finalChatCompletion()).rejects.toThrow(
      LengthFinishReasonError,
    );
    const completion = await chatCompletionFromStream(
      await client.chat.completions.create({ model: "gpt-5", messages: question, tools: tools(), stream: true }),
    );
    expect(completion.choices[0]?.finish_reason).toBe("length");
    expect(completion.choices[0]?.message.tool_calls).toMatchObject([{ type: "function", function: { name: TOOL, arguments: CUT_OFF } }]);
  });

  it("chat.completions.stream() throws on text that is not JSON; chatCompletionFromStream hands the text on", async () => {
    fake.play([{ tool: TOOL, args: NOT_JSON }]);
    await expect(client.chat.completions.stream({ model: "gpt-5", messages: question, tools: tools() }).finalChatCompletion()).rejects.toThrow(/JSON/);
    const completion = await chatCompletionFromStream(
      await client.chat.completions.create({ model: "gpt-5", messages: question, tools: tools(), stream: true }),
    );
    expect(completion.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { tool_calls: [{ function: { arguments: NOT_JSON } }] } });
  });
});

describe("chat.completions.parse", () => {
  it('refuses a strict: "auto" tool list in which one tool cannot be strict', async () => {
    const client = new OpenAI({ baseURL: "http://127.0.0.1:9/v1", apiKey: "test", maxRetries: 0 });
    const orgChart = updateOrgChart.implement(() => ({ ok: true }), { ledger: new MemorySink() });
    const tools = openAiTools([invoiceBench().tool, orgChart], { strict: "auto" }).chat;
    expect(tools.map((tool) => tool.function.strict ?? false)).toEqual([true, false]);
    // (It throws before any request, synchronously in openai 7.)
    await expect(Promise.resolve().then(() => client.chat.completions.parse({ model: "gpt-5", messages: question, tools }))).rejects.toThrow(
      "The `update_org_chart` tool is not marked with `strict: true`",
    );
  });
});

describe("OpenAI Responses streams, strict tools", () => {
  let fake: FakeModel;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeModel("responses");
    client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());
  const tools = () => openAiTools([invoiceBench().tool], { strict: "auto" }).responses;

  it("responses.stream() throws on text that is not JSON; responseFromStream hands the text on", async () => {
    fake.play([{ tool: TOOL, args: NOT_JSON }]);
    await expect(client.responses.stream({ model: "gpt-5", input: question, tools: tools() }).finalResponse()).rejects.toThrow(/JSON/);
    const response = await responseFromStream(await client.responses.create({ model: "gpt-5", input: question, tools: tools(), stream: true }));
    expect(response.output).toMatchObject([{ type: "function_call", arguments: NOT_JSON }]);
  });

  it("responseFromStream keeps a cut-off answer's incomplete_details, and fills in output_text", async () => {
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }]);
    const cut = await responseFromStream(await client.responses.create({ model: "gpt-5", input: question, tools: tools(), stream: true }));
    expect(cut).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [{ arguments: CUT_OFF }] });
    fake.play([{ text: "Done." }]);
    const done = await responseFromStream(await client.responses.create({ model: "gpt-5", input: question, tools: tools(), stream: true }));
    expect(done.output_text).toBe("Done.");
  });
});

describe("Anthropic Messages streams", () => {
  let fake: FakeModel;
  let client: Anthropic;
  beforeAll(async () => {
    fake = await startFakeModel("anthropic");
    client = new Anthropic({ baseURL: fake.baseURL.replace(/\/v1$/, ""), apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());
  const request = () => ({ model: "claude-sonnet-5", max_tokens: 1024, messages: question, tools: [] });

  it("messages.stream() throws on partial_json that is not JSON; messageFromStream keeps the text for the guard", async () => {
    fake.play([{ tool: TOOL, args: NOT_JSON }]);
    await expect(client.messages.stream(request()).finalMessage()).rejects.toThrow(/JSON/);
    const message = await messageFromStream(await client.messages.create({ ...request(), stream: true }));
    expect(message).toMatchObject({ stop_reason: "tool_use", content: [{ type: "tool_use", name: TOOL, input: {} }] });
  });

  it("messageFromStream parses what is JSON, and keeps stop_reason max_tokens", async () => {
    fake.play([{ tool: TOOL, args: '{"amount": 1299}' }]);
    const whole = await messageFromStream(await client.messages.create({ ...request(), stream: true }));
    expect(whole.content).toMatchObject([{ type: "tool_use", input: { amount: 1299 } }]);
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }]);
    const cut = await messageFromStream(await client.messages.create({ ...request(), stream: true }));
    expect(cut).toMatchObject({ stop_reason: "max_tokens", content: [{ type: "tool_use", input: {} }] });
  });
});

describe("the stream helpers, handed something that is not a stream", () => {
  const completion = { id: "c", object: "chat.completion", choices: [] };
  it.each([
    [
      "chatCompletionFromStream",
      () => chatCompletionFromStream(completion as never),
      "client.chat.completions.create",
      "an object that is not a stream (an answer requested without stream: true?)",
    ],
    ["responseFromStream", () => responseFromStream(Promise.resolve({}) as never), "client.responses.create", "a promise (await the stream first)"],
    ["messageFromStream", () => messageFromStream(undefined as never), "client.messages.create", "undefined"],
  ])("%s says what it needs", async (helper, read, create, got) => {
    await expect(read()).rejects.toThrow(new TypeError(`toolguard: ${helper} needs the stream of ${create}({ ..., stream: true }), got ${got}`));
  });
});
