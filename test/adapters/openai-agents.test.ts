// The OpenAI Agents adapter with the real `@openai/agents` 0.20 (its OpenAI provider, Responses
// API, with a custom client baseURL) against a scripted model on 127.0.0.1, through the README's
// loop (examples/adapters/openai-agents.ts). The tools are built without the SDK's `tool()`, so
// the raw argument text reaches the guard; the provider wrapper turns a Responses answer cut off
// by max_output_tokens, which the SDK would throw on, into calls the guard reads as cut off.
import { Agent, OpenAIProvider, Runner } from "@openai/agents";
import OpenAI from "openai";
import { agentsTools, guardModelProvider } from "../../generated/extras/openai-agents/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentsTurn } from "../../examples/adapters/openai-agents.ts";
import { startFakeModel, type FakeModel } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, INVALID_ENVELOPE, invoiceBench, NOT_JSON, okOutcome, RECEIVED, REFUSAL, TOOL, VALID, VALID_STRICT } from "./invoice-script.ts";

let fake: FakeModel;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeModel("responses");
  client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
});
afterAll(() => fake.close());

describe("OpenAI Agents through the adapter", () => {
  it("repairs the brief's invoice on the second call, one run being one turn", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await agentsTurn(client, [bench.tool], "Invoice Acme BV for 1299 euro")).toBe("Done.");
    expect(bench.received).toEqual([RECEIVED]);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, okOutcome(2, expect.any(String))]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1, attempts: [{ raw: INVALID }, { raw: VALID, coercions: [] }] }]);
  });

  it("refuses a model that never gets it right, after one repair", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: INVALID }, { text: "I need the amount." }]);
    expect(await agentsTurn(client, [bench.tool], "Invoice Acme BV")).toBe("I need the amount.");
    expect(bench.received).toEqual([]);
    expect(fake.requests).toHaveLength(3);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, REFUSAL]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1 }]);
  });

  it.each([false, true])("ends the run with the refusal when the model will not stop, instead of MaxTurnsExceededError (streamed: %s)", async (stream) => {
    const bench = invoiceBench();
    fake.play([
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: VALID },
    ]);
    const answer = await agentsTurn(client, [bench.tool], "Invoice Acme BV", stream);
    expect(JSON.parse(String(answer))).toMatchObject({ status: "arguments_rejected", tool: TOOL });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((body) => (body.stream === true) === stream)).toBe(true);
    expect(bench.received).toEqual([]);
  });

  it("hands text that is not JSON to the guard instead of the SDK's fixed reply", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await agentsTurn(client, [bench.tool], "Invoice Acme BV");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "single_quotes" }], repairsLeft: 1 });
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, { raw: VALID }] }]);
    // The model is shown its own text in the history, not the wrapper the runner carried.
    const replayed = ((fake.requests[1]?.input ?? []) as { type: string; arguments?: string }[]).find((item) => item.type === "function_call");
    expect(replayed?.arguments).toBe(NOT_JSON);
  });

  it("without the provider wrapper, the SDK answers such text itself and the guard never sees it", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
    const agent = new Agent({ name: "billing", model: "gpt-5", tools: agentsTools([bench.tool]) });
    await runner.run(agent, "Invoice Acme BV", { maxTurns: 8 });
    // The runner parses the text itself and answers with its fixed words: unexplained, uncounted.
    expect(fake.toolResults()[0]).toBe("An error occurred while parsing tool arguments. Please try again with valid JSON.");
    expect(bench.chains()).toMatchObject([{ verdict: "ok", attempts: [{ raw: VALID }] }]);
  });

  it("reads a response cut off by max_output_tokens as truncated instead of failing the run", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await agentsTurn(client, [bench.tool], "Invoice Acme BV")).toBe("Done.");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "truncated" }], repairsLeft: 2 });
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: "max_output_tokens" }, { raw: VALID }] }]);
  });

  it("answers an unknown tool with the tools the model may call", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: "create_invoices", args: VALID }, { text: "Sorry." }]);
    expect(await agentsTurn(client, [bench.tool], "Invoice Acme BV")).toBe("Sorry.");
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([
      {
        status: "unknown_tool",
        tool: "create_invoices",
        available: [TOOL],
        detail: 'There is no tool named "create_invoices". Call one of: "create_invoice".',
      },
    ]);
  });

  it("sends the strict variant with strict: true, and drops its nulls before validating", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: VALID_STRICT }, { text: "Done." }]);
    await agentsTurn(client, [bench.tool], "Invoice Acme BV");
    const [definition] = (fake.requests[0]?.tools ?? []) as { strict: boolean; parameters: { required: string[] } }[];
    expect(definition).toMatchObject({ strict: true, parameters: { required: ["amount", "currency", "customer_ref", "due_date", "line_items", "memo"] } });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "ok", attempts: [{ absent: ["/due_date", "/memo"] }] }]);
  });
});

describe("OpenAI Agents on its Chat Completions model, through the provider wrapper", () => {
  let chatFake: FakeModel;
  let chatClient: OpenAI;
  beforeAll(async () => {
    chatFake = await startFakeModel("chat");
    chatClient = new OpenAI({ baseURL: chatFake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => chatFake.close());

  async function run(bench: ReturnType<typeof invoiceBench>): Promise<unknown> {
    const runner = new Runner({
      modelProvider: guardModelProvider(new OpenAIProvider({ openAIClient: chatClient, useResponses: false })),
      tracingDisabled: true,
    });
    const agent = new Agent({ name: "billing", model: "gpt-5", tools: agentsTools([bench.tool]) });
    return (await runner.run(agent, "Invoice Acme BV", { maxTurns: 8 })).finalOutput;
  }

  it("hands text that is not JSON to the guard", async () => {
    const bench = invoiceBench();
    chatFake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await run(bench)).toBe("Done.");
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, { raw: VALID }] }]);
  });

  it("passes finish_reason length on as cut off", async () => {
    const bench = invoiceBench();
    chatFake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await run(bench)).toBe("Done.");
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: "length" }, { raw: VALID }] }]);
  });
});
